// Every op definition file, imported once so each registers itself.
import './binary.js';
import './creation.js';
import './cast.js';
