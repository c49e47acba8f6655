/**
 * Medium 3: links from exports. An entity URL, a bare link or any other value from message data becomes
 * an `href` only for http, https, tg and mailto; `javascript:` and `data:` in every spelling stay text.
 * The viewer's own text renderer is run on a message whose entities carry each attack.
 */
import type { VNode } from 'preact';
import { describe, expect, it } from 'vitest';
import { RichText } from '../../web/archive/text';
import { safeBareHref, safeHref } from '../../web/shared/links';

const ATTACKS = [
  'javascript:alert(document.cookie)',
  ' JaVaScRiPt:alert(1)',
  '\tjavascript:alert(1)',
  'java\nscript:alert(1)',
  '\u0000javascript:alert(1)',
  'JAVASCRIPT:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'DATA:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
  'blob:https://example.org/1',
  '//evil.example/',
  'not a url',
];

function hrefsOf(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(hrefsOf);
  if (!node || typeof node !== 'object') return [];
  const vnode = node as VNode<{ href?: string; children?: unknown }>;
  if (typeof vnode.type === 'function') return hrefsOf((vnode.type as (p: unknown) => unknown)(vnode.props));
  return [...(vnode.props?.href !== undefined ? [vnode.props.href] : []), ...hrefsOf(vnode.props?.children)];
}

describe('safeHref', () => {
  it.each(ATTACKS)('keeps %j as text', (value) => {
    expect(safeHref(value)).toBeNull();
  });

  it.each([
    ['https://example.org/a?b=c', 'https://example.org/a?b=c'],
    ['HTTP://Example.org', 'http://example.org/'],
    ['tg://resolve?domain=release_crew', 'tg://resolve?domain=release_crew'],
    ['mailto:team@example.org', 'mailto:team@example.org'],
  ])('lets %j through as a link', (value, href) => {
    expect(safeHref(value)).toBe(href);
  });

  it('gives bare addresses https, and refuses a bare value naming another scheme', () => {
    expect(safeBareHref('example.org/release')).toBe('https://example.org/release');
    expect(safeBareHref('javascript:alert(1)')).toBeNull();
  });
});

describe('the viewer renders entities from exports', () => {
  it.each(ATTACKS)('a text_link / texturl to %j is text, not a link', (url) => {
    const text = 'click here and there';
    const raw = {
      entities: [
        { type: 'text_link', offset: 0, length: 10, url },
        { _: 'MessageEntityTextUrl', offset: 15, length: 5, url },
      ],
    };
    const hrefs = hrefsOf(RichText({ text, raw }));
    expect(hrefs).toEqual([]);
  });

  it('a url entity whose text names a forbidden scheme is text; an ordinary one is a link', () => {
    const text = 'javascript:alert(1) example.org';
    const raw = {
      entities: [
        { type: 'url', offset: 0, length: 19 },
        { type: 'url', offset: 20, length: 11 },
      ],
    };
    expect(hrefsOf(RichText({ text, raw }))).toEqual(['https://example.org/']);
  });

  it('a safe text_link stays a link', () => {
    const raw = { entities: [{ type: 'text_link', offset: 0, length: 4, url: 'https://example.org/x' }] };
    expect(hrefsOf(RichText({ text: 'docs', raw }))).toEqual(['https://example.org/x']);
  });
});
