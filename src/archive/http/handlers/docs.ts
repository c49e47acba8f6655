import type { Response } from 'express';
import { loadBundledDocument } from '../../../common/documents';
import type { ArchiveWiring } from '../wiring';
import type { ArchiveHandlers } from './types';

export function docsHandlers(_d: ArchiveWiring) {
  return {
    getOpenApiDocument: async (_req, res) => {
      res.json(loadBundledDocument('archive') as never);
    },
    getDocsPage: async (_req, res) => {
      (res as Response).type('html').send(page('docs-init.js'));
    },
    getRedocPage: async (_req, res) => {
      (res as Response).type('html').send(page('reference-init.js'));
    },
  } satisfies ArchiveHandlers;
}

const page = (init: string) =>
  '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Chat archive viewer API</title>' +
  '<link rel="stylesheet" href="/static/docs/swagger-ui.css"></head><body><div id="api-docs"></div>' +
  '<script src="/static/docs/swagger-ui.js"></script>' +
  `<script src="/static/docs/${init}" data-spec-url="/openapi.json"></script></body></html>`;
