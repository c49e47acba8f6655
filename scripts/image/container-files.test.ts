/**
 * No Docker engine runs on the project's machines, so the Dockerfile and compose.yaml are held against what
 * the project really has: entry points, commands, ports, volumes, variables and health checks.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Healthcheck } from 'dockerfile-ast';
import { describe, expect, it } from 'vitest';
import { loadBackupConfig } from '../../src/archive/backup/config';
import { loadConfig as loadArchiveConfig } from '../../src/archive/config';
import { DEFAULT_PORTS, isService, ROOT } from '../../src/common/services';
import { loadFuelConfig } from '../../src/fuel/config';
import { loadConfig as loadSubtitlesConfig } from '../../src/subtitles/config';
import { envPairs, execForm, ownServices, readCompose, readDockerfile } from './files';

/** An example environment file's `KEY=value` lines (comments and blank lines aside). */
function exampleEnv(file: string): Record<string, string> {
  return Object.fromEntries(
    readFileSync(path.join(ROOT, file), 'utf8')
      .split('\n')
      .filter((line) => /^[A-Z_][A-Z0-9_]*=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

const stages = readDockerfile();
const build = stages[0];
const runtime = stages.at(-1);
const compose = readCompose();
const scripts = (
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;

const of = (keyword: string) => (runtime?.instructions ?? []).filter((i) => i.keyword === keyword);

/** Every string literal naming an environment variable in the project's source. */
const variablesRead = (() => {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        for (const match of readFileSync(file, 'utf8').matchAll(/['"`]([A-Z][A-Z0-9_]{2,})['"`]/g)) {
          names.add(match[1] as string);
        }
      }
    }
  };
  walk(path.join(ROOT, 'src'));
  return names;
})();

/** A variable the project reads, directly or as the prefixed form `npm start` accepts (FUEL_DATABASE_URL). */
const isRead = (name: string) =>
  variablesRead.has(name) ||
  /^MSGR_ACCOUNT_\d+_/.test(name) ||
  ['FUEL_', 'ARCHIVE_', 'SUBTITLES_'].some(
    (prefix) => name.startsWith(prefix) && variablesRead.has(name.slice(prefix.length)),
  );

const helpOf = new Map<string, string>();
function commandsOf(service: string): string {
  let help = helpOf.get(service);
  if (help === undefined) {
    // A command line may print its usage for --help with a usage-error status (subtitles exits 2).
    const result = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'specyard.js'), service, '--help'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    help = `${result.stdout}${result.stderr}`;
    helpOf.set(service, help);
  }
  return help;
}

describe('Dockerfile', () => {
  it('builds in one stage and runs in another, from the Node major version the project targets', () => {
    expect(stages).toHaveLength(2);
    expect(build?.name).toBe('build');
    expect(runtime?.from).toMatch(/^node:20[-.]/);
  });

  it('builds with the project’s own scripts and keeps production dependencies only', () => {
    const runs = (build?.instructions ?? []).filter((i) => i.keyword === 'RUN').map((i) => i.args);
    const npmRuns = runs.join(' && ').matchAll(/npm run ([\w:-]+)/g);
    for (const [, script] of npmRuns) expect(scripts, `npm run ${script}`).toHaveProperty(script as string);
    expect(runs.join('\n')).toMatch(/npm ci\b/);
    expect(runs.join('\n')).toMatch(/npm prune --omit=dev/);
    expect(runs.join('\n')).toMatch(/find src -name '\*\.ts' -delete/);
  });

  it('copies only what exists in the repository or what the build writes', () => {
    // What the build stage writes: dependencies, the compiled server, the built pages (npm run build:web).
    const built = new Set(['/app/node_modules', '/app/dist', '/app/web/dist']);
    for (const copy of of('COPY')) {
      const [source = ''] = copy.args.replace(/^--from=\S+ /, '').split(' ');
      if (built.has(source)) continue;
      expect(existsSync(path.join(ROOT, source.replace(/^\/app\//, ''))), source).toBe(true);
    }
  });

  it('starts through the one entry point, as uid 1000, writing under /data only', () => {
    const entry = execForm(of('ENTRYPOINT')[0]?.args ?? '');
    expect(entry.at(-1)).toBe('/app/bin/specyard.js');
    expect(existsSync(path.join(ROOT, 'bin', 'specyard.js'))).toBe(true);
    expect(execForm(of('CMD')[0]?.args ?? '')).toEqual(['all']);
    expect(of('USER')[0]?.args).toBe('1000:1000');
    expect(of('VOLUME')[0]?.args).toBe('/data');
    const env = Object.assign({}, ...of('ENV').map((i) => envPairs(i.args))) as Record<string, string>;
    expect(env.DATA_DIR).toBe('/data');
    for (const [name, value] of Object.entries(env)) {
      expect(isRead(name) || name === 'NODE_ENV' || name === 'TMPDIR', name).toBe(true);
      if (value.startsWith('/')) expect(value, name).toMatch(/^\/data(\/|$)/);
    }
  });

  it('exposes exactly the three service ports', () => {
    const exposed = (of('EXPOSE')[0]?.args ?? '').split(' ').map(Number).sort();
    expect(exposed).toEqual(Object.values(DEFAULT_PORTS).sort());
  });

  it('checks health like the archive seed gives it for the viewer (30 s, 30 s start, 3 retries)', () => {
    const [check] = of('HEALTHCHECK');
    if (!check) throw new Error('no HEALTHCHECK');
    const flags = Object.fromEntries(
      (check.instruction as Healthcheck).getFlags().map((flag) => [flag.getName(), flag.getValue()]),
    );
    expect(flags).toMatchObject({ interval: '30s', 'start-period': '30s', retries: '3' });
    expect(execForm(check?.args ?? '')).toEqual(['node', '/app/bin/specyard.js', 'healthcheck']);
  });
});

describe('compose.yaml', () => {
  const own = ownServices(compose);

  it('runs every service of the project from the image, read-only, with its data in a volume at /data', () => {
    const services = new Set(own.map(([, s]) => s.command?.[0]));
    expect(services).toEqual(new Set(['fuel', 'archive', 'subtitles']));
    for (const [name, service] of own) {
      expect(service.read_only, name).toBe(true);
      const data = service.volumes?.find((v) => v.endsWith(':/data'));
      expect(data, name).toBeDefined();
      const volume = data?.split(':')[0] ?? '';
      expect(compose.volumes ?? {}, name).toHaveProperty(volume);
    }
  });

  it('gives every service a command its command line has', () => {
    for (const [name, service] of own) {
      const [svc = '', command = ''] = service.command ?? [];
      expect(isService(svc), name).toBe(true);
      expect(commandsOf(svc), `${name}: ${svc} ${command}`).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
    }
  });

  it('publishes each server on its own port and sets the variable that port comes from', () => {
    const portVariable = { fuel: 'FUEL_PORT', archive: 'VIEWER_PORT', subtitles: 'SUBTITLES_PORT' } as const;
    for (const [name, service] of own) {
      const [svc = '', command] = service.command ?? [];
      if (command !== 'serve' || !isService(svc)) continue;
      const port = String(DEFAULT_PORTS[svc]);
      expect(service.ports, name).toContain(`${port}:${port}`);
      expect(service.environment?.[portVariable[svc]], name).toBe(port);
    }
  });

  it('turns metrics on for each server, on a port of its own that is not published', () => {
    for (const [name, service] of own) {
      const [svc = '', command] = service.command ?? [];
      if (command !== 'serve' || !isService(svc)) continue;
      const metrics = Number(service.environment?.METRICS_PORT);
      expect(Number.isInteger(metrics) && metrics > 0, name).toBe(true);
      expect(metrics, name).not.toBe(DEFAULT_PORTS[svc]);
      expect(service.ports?.some((p) => p.endsWith(`:${metrics}`)) ?? false, name).toBe(false);
    }
  });

  it('sets only variables the project reads, in the file and in each example environment file', () => {
    for (const [name, service] of own) {
      for (const variable of Object.keys(service.environment ?? {}))
        expect(isRead(variable), `${name}: ${variable}`).toBe(true);
      for (const envFile of service.env_file ?? []) {
        const example = path.join(ROOT, `${envFile}.example`);
        expect(existsSync(example), example).toBe(true);
        for (const line of readFileSync(example, 'utf8').split('\n')) {
          const variable = line.split('=')[0]?.trim();
          if (variable && !variable.startsWith('#'))
            expect(isRead(variable), `${envFile}: ${variable}`).toBe(true);
        }
      }
    }
  });

  it('checks each service with the image health check for what it runs, backup and viewer as the seed says', () => {
    for (const [name, service] of own) {
      const test = service.healthcheck?.test ?? [];
      expect(test.slice(0, 4), name).toEqual(['CMD', 'node', '/app/bin/specyard.js', 'healthcheck']);
      expect(test.slice(4), name).toEqual(service.command?.slice(0, 2));
    }
    const backup = own.find(([, s]) => s.command?.join(' ') === 'archive schedule')?.[1].healthcheck;
    expect(backup).toMatchObject({ interval: '60s', start_period: '300s', retries: 3 });
    const viewer = own.find(([, s]) => s.command?.join(' ') === 'archive serve')?.[1].healthcheck;
    expect(viewer).toMatchObject({ interval: '30s', start_period: '30s', retries: 3 });
  });

  it('starts every service from the copied example files: each configuration loads, nothing left unset is required', () => {
    const image = Object.assign(
      {},
      ...(readDockerfile().at(-1)?.instructions ?? [])
        .filter((i) => i.keyword === 'ENV')
        .map((i) => envPairs(i.args)),
    ) as Record<string, string>;
    const loaders: Record<string, (env: Record<string, string>) => unknown> = {
      'fuel serve': loadFuelConfig,
      'archive serve': loadArchiveConfig,
      'archive schedule': loadBackupConfig,
      'subtitles serve': loadSubtitlesConfig,
    };
    for (const [name, service] of own) {
      const env: Record<string, string> = { ...image };
      for (const envFile of service.env_file ?? []) Object.assign(env, exampleEnv(`${envFile}.example`));
      Object.assign(env, service.environment ?? {});
      const load = loaders[(service.command ?? []).slice(0, 2).join(' ')];
      expect(load, name).toBeDefined();
      expect(() => load?.(env), name).not.toThrow();
    }
  });

  it('pins every image it pulls, and names in the README each variable a user sets', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      if (!service.image || service.build) continue;
      expect(service.image, name).toMatch(/:(?!latest$)[\w.-]+$/);
    }
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const composeText = readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8');
    const substituted = [...composeText.matchAll(/\$\{(\w+)(:-[^}]*)?\}/g)];
    for (const [, variable, fallback] of substituted) {
      expect(fallback, `${variable} has a default in compose.yaml`).toBeDefined();
      expect(readme, `README names ${variable}`).toContain(`\`${variable}\``);
    }
    for (const envFile of new Set(Object.values(compose.services).flatMap((s) => s.env_file ?? []))) {
      for (const variable of Object.keys(exampleEnv(`${envFile}.example`)))
        expect(readme, `README names ${variable} (${envFile})`).toContain(variable);
    }
  });

  it('mounts the subtitles library writable: each subtitle is written beside its media file', () => {
    const [, subtitles] = own.find(([, s]) => s.command?.[0] === 'subtitles') ?? [];
    const mediaDir = exampleEnv('deploy/subtitles.env.example').SUBTITLES_MEDIA_DIR;
    expect(mediaDir).toBe('/media');
    // source:target[:options], where the source may be a ${VARIABLE:-default} holding a colon.
    const mounts = (subtitles?.volumes ?? []).map((v) => /^(\$\{[^}]*\}|[^:]+):([^:]+)(?::(.*))?$/.exec(v));
    const media = mounts.find((m) => m?.[2] === mediaDir);
    expect(media).toBeDefined();
    expect(media?.[3] ?? 'rw').not.toMatch(/\bro\b/);
  });

  it('prints, in the example files, only compose commands the entry point runs', () => {
    const runs = readdirSync(path.join(ROOT, 'deploy'))
      .filter((f) => f.endsWith('.env.example'))
      .flatMap((f) => [
        ...readFileSync(path.join(ROOT, 'deploy', f), 'utf8').matchAll(/docker compose run ([^`\n]+)/g),
      ])
      .map((m) =>
        (m[1] ?? '')
          .trim()
          .split(/\s+/)
          .filter((word) => !word.startsWith('-')),
      );
    expect(runs.length).toBeGreaterThan(0);
    for (const [service = '', program = '', command = ''] of runs) {
      expect(Object.keys(compose.services), service).toContain(service);
      expect(isService(program), `${service} ${program}: the entry point's first word is a service`).toBe(
        true,
      );
      expect(commandsOf(program), `${program} ${command}`).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
    }
  });

  it('runs the routing engine, the geocoder and the databases the services point at', () => {
    expect(Object.keys(compose.services)).toEqual(
      expect.arrayContaining(['osrm', 'photon', 'fuel-db', 'archive-db']),
    );
    expect(compose.services['fuel-db']?.image).toMatch(/^postgis\//);
    const fuel = own.find(([, s]) => s.command?.[0] === 'fuel')?.[1];
    expect(fuel?.environment?.OSRM_URL).toMatch(/^http:\/\/osrm:/);
    expect(fuel?.environment?.PHOTON_URL).toMatch(/^http:\/\/photon:/);
  });
});
