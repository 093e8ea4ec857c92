// Prints the C++ sources under the given folders for binding.gyp (gyp has no globbing).
const fs = require('fs');
const path = require('path');
const out = [];
for (const dir of process.argv.slice(2)) {
  if (!fs.existsSync(dir)) continue;
  for (const f of fs.readdirSync(dir).sort()) if (f.endsWith('.cc')) out.push(path.posix.join(dir, f));
}
process.stdout.write(out.join(' '));
