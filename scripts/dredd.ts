/**
 * `npm run dredd -- <service> [--endpoint URL]`: Dredd against a running server of that service, with the
 * committed configuration in contract-tests/dredd/. Exits with Dredd's status.
 *
 * Dredd ignores every other argument when given `--config`, so the configuration is read here and passed
 * as arguments, which lets `--endpoint` override it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import YAML from 'yaml';
import { isService, ROOT, SERVICES } from '../src/common/services';

interface DreddConfig {
  blueprint: string;
  endpoint: string;
  hookfiles: string[];
  language: string;
  loglevel: string;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { endpoint: { type: 'string' } },
});
const [service] = positionals;
if (!isService(service) || positionals.length > 1) {
  console.error(`usage: npm run dredd -- <${SERVICES.join('|')}> [--endpoint URL]`);
  process.exit(2);
}
const configFile = path.join(ROOT, 'contract-tests', 'dredd', `${service}.yml`);
const config = YAML.parse(readFileSync(configFile, 'utf8')) as DreddConfig;
const args = [
  path.join(ROOT, 'node_modules/dredd/bin/dredd'),
  config.blueprint,
  values.endpoint ?? config.endpoint,
  ...config.hookfiles.map((file) => `--hookfiles=${file}`),
  `--language=${config.language}`,
  `--loglevel=${config.loglevel}`,
  '--color=false',
];
const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
process.exit(result.status ?? 1);
