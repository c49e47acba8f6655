import path from 'node:path';
import { fromFile, Parser } from '@asyncapi/parser';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../lib/document';

type Json = Record<string, unknown>;
type ParsedDocument = NonNullable<Awaited<ReturnType<ReturnType<typeof fromFile>['parse']>>['document']>;

const FILE = path.join(ROOT, 'asyncapi/archive-updates/asyncapi.yaml');

/** A payload's properties, those of the schemas it is made of (`allOf`) included. */
function propertiesOf(payload: Json): Record<string, Json> {
  const parts = [payload, ...((payload.allOf as Json[] | undefined) ?? [])];
  return Object.assign({}, ...parts.map((p) => (p.properties as Record<string, Json> | undefined) ?? {}));
}

/** The one-value enum of a discriminating property (`type` or `action`) of a payload. */
function discriminator(payload: Json, property: string): string | undefined {
  const prop = propertiesOf(payload)[property];
  const values = prop?.enum as string[] | undefined;
  return values?.length === 1 ? values[0] : undefined;
}

function withoutParserKeys(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutParserKeys);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k]) => !k.startsWith('x-parser-'))
      .map(([k, v]) => [k, withoutParserKeys(v)]),
  );
}

describe('the archive WebSocket AsyncAPI document', () => {
  let document: ParsedDocument;
  const payloads = new Map<string, Json>();

  beforeAll(async () => {
    const { document: parsed, diagnostics } = await fromFile(new Parser(), FILE).parse();
    const errors = diagnostics
      .filter((d) => d.severity === 0)
      .map((d) => `${d.message} at ${d.path.join('.')}`);
    expect(errors).toEqual([]);
    expect(parsed).toBeDefined();
    document = parsed as ParsedDocument;
    for (const message of document.allMessages()) {
      payloads.set(message.id(), withoutParserKeys(message.payload()?.json()) as Json);
    }
  });

  it('is AsyncAPI 3 with the /ws/updates channel and its close codes', () => {
    expect(document.version()).toMatch(/^3\./);
    const channel = document
      .channels()
      .all()
      .find((c) => c.address() === '/ws/updates');
    expect(channel).toBeDefined();
    const text = JSON.stringify(channel?.json());
    for (const code of ['4001', '4003', '1013']) expect(text).toContain(code);
  });

  it('has the three client messages and the four replies', () => {
    const actions = [...payloads.values()].map((p) => discriminator(p, 'action')).filter(Boolean);
    expect(actions.sort()).toEqual(['ping', 'subscribe', 'unsubscribe']);
    const types = new Set([...payloads.values()].map((p) => discriminator(p, 'type')));
    for (const reply of ['subscribed', 'subscribe_denied', 'unsubscribed', 'pong'])
      expect(types).toContain(reply);
    const denied = [...payloads.values()].find(
      (p) => discriminator(p, 'type') === 'subscribe_denied',
    ) as Json;
    expect(JSON.stringify(denied.properties)).toContain('subscription_limit');
  });

  it('has the six event frames with the seed fields, each with type and chat_ref', () => {
    const events: Record<string, string[]> = {
      new_message: ['message'],
      edit: ['message_id', 'new_text', 'edit_date'],
      delete: ['message_id', 'deletion_mode', 'deleted_at'],
      pin: ['message_ids', 'pinned'],
      reaction: ['message_id', 'reactions'],
      transcript: ['message_id', 'transcript_id', 'status'],
    };
    for (const [type, fields] of Object.entries(events)) {
      const payload = [...payloads.values()].find((p) => discriminator(p, 'type') === type);
      expect(payload, type).toBeDefined();
      const props = Object.keys(propertiesOf(payload ?? {}));
      expect(props, type).toEqual(expect.arrayContaining(['type', 'chat_ref', ...fields]));
    }
  });

  it('has a valid example for every message', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const problems: string[] = [];
    for (const message of document.allMessages()) {
      const examples = message.examples().all();
      if (examples.length === 0) problems.push(`${message.id()}: no example`);
      const validate = ajv.compile(payloads.get(message.id()) as Json);
      for (const example of examples) {
        if (!validate(example.payload()))
          problems.push(`${message.id()}: ${ajv.errorsText(validate.errors)}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
