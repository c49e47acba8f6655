/**
 * The gate reads each operation's access level from the document at start, and refuses to start when
 * one is missing or unknown; the server itself then does not start.
 */
import { describe, expect, it } from 'vitest';
import { loadBundledDocument } from '../../common/documents';
import { accessLevels, gate } from './gate';

// biome-ignore lint/suspicious/noExplicitAny: a copy of the bundled document, edited per case.
const documentCopy = (): any => structuredClone(loadBundledDocument('subtitles'));

describe('access levels from the document', () => {
  it('reads one level per documented operation', () => {
    const byId = Object.fromEntries(accessLevels(documentCopy()));
    expect(byId).toMatchObject({
      getSetupStatus: 'admin',
      getQueue: 'admin',
      getInjectionStatus: 'admin',
      logoutSession: 'user',
      getPublicSystemInfo: 'public',
    });
  });

  it.each([
    ['no x-access', undefined],
    ['an unknown level', 'master'],
    ['a level in another case', 'Admin'],
  ])('refuses an operation with %s', (_case, value) => {
    const doc = documentCopy();
    doc.paths['/Plugins/{plugin}/Queue'].get['x-access'] = value;
    expect(() => accessLevels(doc)).toThrow(/getQueue .*x-access/);
  });

  it('refuses a level that needs credentials on an operation that documents none', () => {
    const doc = documentCopy();
    doc.paths['/System/Info/Public'].get['x-access'] = 'admin';
    expect(() => accessLevels(doc)).toThrow(/getPublicSystemInfo: x-access admin/);
  });

  it('checks at construction (the app builds it at start), not on the first request', () => {
    const settings = {
      basePath: '',
      pluginName: 'Subtitles',
      pluginEnabled: true,
      store: undefined as never,
      legacyAuthorization: () => true,
    };
    expect(typeof gate(settings)).toBe('function');
    const doc = documentCopy();
    delete doc.paths['/Plugins/{plugin}/Setup/Status'].get['x-access'];
    expect(() => gate(settings, doc)).toThrow(/getSetupStatus .*x-access/);
  });
});
