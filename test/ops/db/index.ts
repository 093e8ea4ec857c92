// One import per family file of op records.
import './binary.js';
import './creation.js';
