'use strict';
// `prepack` and `prepublishOnly` of the repository's package.json: a plain `npm pack` or
// `npm publish` at the root would make a package without its optionalDependencies (the
// platform packages, which scripts/pack.js adds to the published manifest: see there why
// the repository's package.json does not carry them), and so a package that installs no
// binary anywhere. Refused, with the way that works. scripts/pack.js packs with
// --ignore-scripts from a staging folder, so this never runs there; tools that only list
// the files (`npm pack --dry-run --ignore-scripts`) skip it too.

const fs = require('node:fs');
const path = require('node:path');

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
if (!manifest.optionalDependencies || Object.keys(manifest.optionalDependencies).length === 0) {
  process.stderr.write(
    [
      `shorn: refusing \`npm ${process.env.npm_command || 'pack'}\` from the repository root: its package.json has no optionalDependencies,`,
      'so the package would install no platform binary. Pack and publish the set instead:',
      '  npm run build:platforms && npm run pack:packages     # dist/*.tgz, the main package with its optionalDependencies',
      '  then npm publish each tarball of dist/, platform packages first (docs/PACKAGING.md, "Releasing").',
      '',
    ].join('\n'),
  );
  process.exit(1);
}
