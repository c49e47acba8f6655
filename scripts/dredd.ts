/**
 * `npm run dredd -- <service> [--endpoint URL]`: Dredd against a running server of that service, with the
 * committed configuration in contract-tests/dredd/. Exits with Dredd's status.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { isService, ROOT, SERVICES } from '../src/common/services';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { endpoint: { type: 'string' } },
});
const [service] = positionals;
if (!isService(service) || positionals.length > 1) {
  console.error(`usage: npm run dredd -- <${SERVICES.join('|')}> [--endpoint URL]`);
  process.exit(2);
}
const config = path.join('contract-tests', 'dredd', `${service}.yml`);
const args = [path.join(ROOT, 'node_modules/dredd/bin/dredd'), '--config', config];
if (values.endpoint) {
  const blueprint = path.join('generated', service, 'openapi.json');
  args.splice(1, 0, blueprint, values.endpoint);
}
const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
process.exit(result.status ?? 1);
