/**
 * The floors of each service (DESIGN.md, "Floors inside a service"): `model` ← `store` ← `domain` ←
 * `http` / `cli` / `live` / `jobs`. A module imports only from its own floor or below, two parts of one
 * floor never import each other both ways, `src/common` imports no service, and no service imports
 * another. Test files, shared test cases (`*.cases.ts`) and test stand-ins are outside the rule (a test may
 * reach any floor).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname);

/** Each part of a service (a folder, or a file at its top) and its floor. */
const FLOORS: Record<string, Record<string, number>> = {
  archive: {
    model: 0,
    store: 1,
    'config.ts': 2,
    domain: 2,
    importers: 2,
    // The demo archive (its dataset and small real files), written through the store.
    demo: 2,
    // Test plumbing (store/testing/: test databases seeded with the demo archive, the store's shared cases).
    testing: 3,
    live: 3,
    backup: 3,
    http: 4,
    cli: 4,
    // The viewer's composition root; `archive-cli serve` starts it.
    'main.ts': 4,
    'cli.ts': 5,
    'index.ts': 5,
  },
  fuel: {
    model: 0,
    geo: 0,
    store: 1,
    'config.ts': 2,
    upstreams: 2,
    scrapers: 2,
    domain: 2,
    jobs: 3,
    demo: 3,
    http: 4,
    cli: 4,
    testing: 4,
    // The server's composition root; the `serve` command starts it.
    'main.ts': 4,
    'cli.ts': 5,
  },
  subtitles: {
    store: 1,
    'config.ts': 2,
    domain: 2,
    http: 3,
    // The server's composition root; the `serve` command starts it.
    'main.ts': 4,
    cli: 4,
    'test-support.ts': 5,
    'cli.ts': 5,
  },
};
const SERVICES = Object.keys(FLOORS);

interface Import {
  from: string;
  to: string;
  line: number;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.ts$|\.cases\.ts$|\.d\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** Every relative import of a file, resolved to a path under src/ (or outside it). */
function importsOf(file: string): Import[] {
  const found: Import[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((text, i) => {
      // Comments may show an import as an example.
      if (/^\s*(\*|\/\/)/.test(text)) return;
      for (const match of text.matchAll(/(?:from|import\()\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
        const target = path.resolve(path.dirname(file), match[1] as string);
        found.push({ from: path.relative(SRC, file), to: path.relative(SRC, target), line: i + 1 });
      }
    });
  return found;
}

/**
 * `archive/http/app.ts` → { service: 'archive', part: 'http' }; `main.ts` → { service: null }. A `testing`
 * folder is test plumbing wherever it stands (`archive/store/testing/`): its own part, `testing`.
 */
function placeOf(relative: string): { service: string | null; part: string } {
  const [service, first, ...rest] = relative.split('/');
  if (!service || !SERVICES.includes(service)) return { service: null, part: service ?? '' };
  if (rest.slice(0, -1).includes('testing') || first === 'testing') return { service, part: 'testing' };
  const part = rest.length > 0 ? (first as string) : `${(first ?? '').replace(/\.tsx?$/, '')}.ts`;
  return { service, part };
}

const ALL = sources(SRC).flatMap(importsOf);

describe('layering', () => {
  it.each(SERVICES)('%s: every part has a floor, and imports only from its own floor or below', (service) => {
    const floors = FLOORS[service] as Record<string, number>;
    const parts = new Set(
      sources(path.join(SRC, service)).map((file) => placeOf(path.relative(SRC, file)).part),
    );
    expect([...parts].filter((part) => floors[part] === undefined)).toEqual([]);
    const upward = ALL.filter((i) => placeOf(i.from).service === service)
      .filter((i) => {
        const from = placeOf(i.from);
        const to = placeOf(i.to);
        if (to.service !== service || to.part === from.part) return false;
        return (floors[to.part] ?? Number.POSITIVE_INFINITY) > (floors[from.part] ?? 0);
      })
      .map((i) => `${i.from}:${i.line} -> ${i.to}`);
    expect(upward).toEqual([]);
  });

  it.each(SERVICES)('%s: no two parts import each other', (service) => {
    const edges = new Set(
      ALL.filter((i) => placeOf(i.from).service === service && placeOf(i.to).service === service)
        .map((i) => [placeOf(i.from).part, placeOf(i.to).part] as const)
        .filter(([a, b]) => a !== b)
        .map(([a, b]) => `${a} -> ${b}`),
    );
    const both = [...edges].filter((edge) => {
      const [a, b] = edge.split(' -> ');
      return a !== undefined && b !== undefined && a < b && edges.has(`${b} -> ${a}`);
    });
    expect(both).toEqual([]);
  });

  it('the kit imports no service, and no service imports another', () => {
    const crossing = ALL.filter((i) => {
      const from = placeOf(i.from);
      const to = placeOf(i.to);
      if (i.from.startsWith('common/')) return to.service !== null;
      return from.service !== null && to.service !== null && from.service !== to.service;
    }).map((i) => `${i.from}:${i.line} -> ${i.to}`);
    expect(crossing).toEqual([]);
  });

  it('sees the imports it judges (the archive viewer imports its store)', () => {
    expect(ALL.some((i) => i.from === 'archive/http/app.ts' && i.to.startsWith('archive/store/'))).toBe(true);
  });
});

/**
 * The pages' floors (web/): `web/shared` is the ground floor (preact and the generated clients); a page
 * (`web/<service>/`) imports its own folder, `web/shared` and its service's generated client (the archive
 * also its live-update frames); `web/testing` (the Chromium driver) imports no page. No page code imports
 * `src/` or `scripts/`: the tools that build, measure and photograph the pages live in `scripts/web/`. Test
 * files are outside the rule (a journey starts the real server).
 */
const WEB = path.resolve(SRC, '../web');
const ROOT = path.resolve(SRC, '..');
const WEB_ALLOWED: Record<string, string[]> = {
  shared: ['web/shared/', 'generated/'],
  testing: ['web/testing/'],
  archive: ['web/archive/', 'web/shared/', 'generated/archive/', 'generated/archive-updates/'],
  fuel: ['web/fuel/', 'web/shared/', 'generated/fuel/'],
  subtitles: ['web/subtitles/', 'web/shared/', 'generated/subtitles/'],
};

function webSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'dist' || entry.name === 'node_modules' ? [] : webSources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.ts$|\.d\.ts$/.test(entry.name) ? [full] : [];
  });
}

describe('the pages’ floors', () => {
  const files = webSources(WEB);
  const imports = files.flatMap((file) =>
    importsOf(file).map((i) => ({
      from: path.relative(ROOT, file),
      to: path.relative(ROOT, path.resolve(SRC, i.to)),
      line: i.line,
    })),
  );

  it('every folder of web/ has a floor', () => {
    const folders = new Set(files.map((file) => path.relative(WEB, file).split('/')[0] as string));
    expect([...folders].filter((folder) => WEB_ALLOWED[folder] === undefined)).toEqual([]);
  });

  it('each folder imports only what its floor allows: no page imports src/, scripts/ or another page', () => {
    const against = imports
      .filter((i) => {
        const folder = i.from.split('/')[1] as string;
        return !(WEB_ALLOWED[folder] ?? []).some((allowed) => i.to.startsWith(allowed));
      })
      .map((i) => `${i.from}:${i.line} -> ${i.to}`);
    expect(against).toEqual([]);
  });

  it('sees the imports it judges (the archive page imports its generated client)', () => {
    expect(
      imports.some((i) => i.from === 'web/archive/api.ts' && i.to.startsWith('generated/archive/')),
    ).toBe(true);
  });
});
