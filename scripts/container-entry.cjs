// Container entry: runs the compiled service named by SERVICE (dist/<SERVICE>/main.js).
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS entry that loads the compiled bundle named at run time */
'use strict';
const path = require('node:path');
const fs = require('node:fs');

const service = process.env.SERVICE || 'standalone';
if (!/^[a-z]+$/.test(service)) {
  console.error(`SERVICE must be a service name (got ${JSON.stringify(service)})`);
  process.exit(2);
}
const entry = path.join(__dirname, 'dist', service, 'main.js');
if (!fs.existsSync(entry)) {
  console.error(`SERVICE=${service}: no ${entry} (known: ${fs.readdirSync(path.join(__dirname, 'dist')).join(', ')})`);
  process.exit(2);
}
require(entry);
