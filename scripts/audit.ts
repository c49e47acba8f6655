/**
 * `npm run audit`: the production dependency tree against npm's advisory service (`npm audit --omit=dev`).
 * Fails on an advisory of high or critical severity. Where the advisory service cannot be reached (as on
 * this project's build machines, whose registry mirror refuses the audit request), it says so in one line
 * and passes: the check is then to be run on a machine that reaches the service (README, "Security").
 */
import { spawnSync } from 'node:child_process';

const FAILING = ['high', 'critical'];

const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], { encoding: 'utf8', timeout: 120_000 });
let report: {
  metadata?: { vulnerabilities?: Record<string, number> };
  vulnerabilities?: Record<string, { severity: string; via: unknown[] }>;
  statusCode?: number;
  message?: string;
  error?: { summary?: string };
};
try {
  report = JSON.parse(run.stdout || '{}');
} catch {
  report = {};
}

const counts = report.metadata?.vulnerabilities;
if (!counts) {
  const reason =
    (report.statusCode && `the service answered ${report.statusCode}`) ||
    report.error?.summary ||
    run.error?.message ||
    'no report';
  console.log(
    `audit: SKIPPED: the npm advisory service cannot be reached from this machine (${reason.split('\n')[0]}); ` +
      'run `npm run audit` where it can (see README, Security)',
  );
  process.exit(0);
}

const summary = Object.entries(counts)
  .filter(([severity, n]) => severity !== 'total' && n > 0)
  .map(([severity, n]) => `${n} ${severity}`)
  .join(', ');
const failing = FAILING.reduce((n, severity) => n + (counts[severity] ?? 0), 0);
console.log(`audit: production dependencies: ${summary || 'no known advisories'}`);
for (const [name, v] of Object.entries(report.vulnerabilities ?? {})) {
  if (FAILING.includes(v.severity)) console.log(`  ${v.severity}: ${name}`);
}
process.exit(failing > 0 ? 1 : 0);
