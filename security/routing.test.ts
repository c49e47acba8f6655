/**
 * Every documented operation of the three services, sent by a caller without credentials in its
 * documented spelling, with its literal segments upper-cased, and with a trailing slash: the three
 * answers carry the same status. A check bound to a path string instead of the matched operation (the
 * transcription callback's signature once was) shows here as a different answer for one spelling.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE, PASSWORD_ENV, startTestViewer, type TestViewer } from '../src/archive/http/test-viewer';
import { loadBundledDocument } from '../src/common/documents';
import { documentedOperations } from '../src/common/http/operations';
import { parametersOf } from '../src/common/openapi';
import type { Service } from '../src/common/services';
import { writeExampleIcon, writeExamplePages } from '../src/common/testing/example-pages';
import { startTestFuel, type TestFuel } from '../src/fuel/testing/server';
import { type Server, startSeededServer } from '../src/subtitles/test-support';

/** A value for each path parameter: the document's example, else something of the right shape. */
const SAMPLE_PARAMS: Record<string, string> = {
  plugin: 'Subtitles',
  chat_ref: FIXTURE.releaseCrew.ref,
};

function pathOf(
  template: string,
  upper: boolean,
  doc: unknown,
  op: Parameters<typeof parametersOf>[1],
): string {
  const examples = new Map(
    parametersOf(doc, op)
      .filter((p: { in: string }) => p.in === 'path')
      .map((p: { name: string; example?: unknown; schema?: { example?: unknown } }) => [
        p.name,
        String(p.example ?? p.schema?.example ?? '1'),
      ]),
  );
  return template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      if (!part.startsWith('{')) return upper ? part.toUpperCase() : part;
      const name = part.slice(1, -1);
      return encodeURIComponent(SAMPLE_PARAMS[name] ?? examples.get(name) ?? '1');
    })
    .join('');
}

async function statusOf(base: string, method: string, path: string): Promise<number> {
  const body = ['post', 'put', 'patch'].includes(method) ? '{}' : undefined;
  const res = await fetch(`${base}${path}`, {
    method: method.toUpperCase(),
    redirect: 'manual',
    ...(body !== undefined && { body, headers: { 'content-type': 'application/json' } }),
  });
  await res.arrayBuffer();
  return res.status;
}

function spellingsOf(service: Service, base: () => string) {
  const doc = loadBundledDocument(service);
  const ops = documentedOperations(doc);
  it.each(ops.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))(
    '%s answers alike in every spelling',
    async (_name, op) => {
      const documented = pathOf(op.path, false, doc, op);
      const upper = pathOf(op.path, true, doc, op);
      const answers = {
        documented: await statusOf(base(), op.method, documented),
        upper: await statusOf(base(), op.method, upper),
        slash: await statusOf(base(), op.method, `${documented}/`),
      };
      expect(answers, `${documented} / ${upper}`).toEqual({
        documented: answers.documented,
        upper: answers.documented,
        slash: answers.documented,
      });
      // The route exists in every spelling (a 404 for all three would prove nothing about the checks).
      if (!op.path.includes('{')) expect(answers.documented).not.toBe(404);
    },
  );
}

// Each server serves a page "build" of its document's examples, so the page, its asset and its icon exist
// whatever web/dist holds (a fresh clone has none).
describe('archive', () => {
  let viewer: TestViewer;
  let pages: Awaited<ReturnType<typeof writeExamplePages>>;
  beforeAll(async () => {
    pages = await writeExamplePages('archive');
    viewer = await startTestViewer(
      {
        ...PASSWORD_ENV,
        TRANSCRIPTION_ENABLED: 'true',
        TRANSCRIPTION_URL: 'http://127.0.0.1:9',
        TRANSCRIPTION_WEBHOOK_SECRET: `whsec_${Buffer.from('a-secret-of-sixteen+').toString('base64')}`,
      },
      { webDist: pages.distRoot },
    );
  });
  afterAll(async () => {
    await viewer.close();
    await pages.remove();
  });
  spellingsOf('archive', () => viewer.url);
});

describe('fuel', () => {
  let fuel: TestFuel;
  let pages: Awaited<ReturnType<typeof writeExamplePages>>;
  beforeAll(async () => {
    pages = await writeExamplePages('fuel');
    fuel = await startTestFuel({ webDist: pages.distRoot });
  });
  afterAll(async () => {
    await fuel.close();
    await pages.remove();
  });
  spellingsOf('fuel', () => fuel.url);
});

describe('subtitles', () => {
  let server: Server;
  let icon: Awaited<ReturnType<typeof writeExampleIcon>>;
  beforeAll(async () => {
    icon = await writeExampleIcon('subtitles');
    server = await startSeededServer({}, { webDist: icon.distRoot });
  });
  afterAll(async () => {
    await server.close();
    await icon.remove();
  });
  spellingsOf('subtitles', () => server.url);
});
