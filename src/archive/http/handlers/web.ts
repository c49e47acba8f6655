/**
 * The web viewer (`GET /` and its built files under `/static/`) and the files of the API reference pages
 * (`/static/docs/`), served from the viewer itself so every page works under its same-origin policy.
 */

import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Response } from 'express';
import { sendFavicon, sendFile, sendWebAsset, sendWebPage } from '../../../common/http/web-page';
import { notFound } from '../../domain/errors';
import { CONTENT_SECURITY_POLICY } from '../security';
import type { ArchiveWiring } from '../wiring';
import type { ArchiveHandlers } from './types';

export function webHandlers(wiring: ArchiveWiring) {
  return {
    getWebPage: async (_req, res) => {
      sendWebPage(res as Response, {
        service: 'archive',
        distRoot: wiring.webDist,
        contentSecurityPolicy: CONTENT_SECURITY_POLICY,
      });
    },
    getWebAsset: async (req, res) => {
      const sent = await sendWebAsset(res as Response, {
        service: 'archive',
        distRoot: wiring.webDist,
        file: req.params.file,
        contentSecurityPolicy: CONTENT_SECURITY_POLICY,
      });
      if (!sent) throw notFound('Not found');
    },
    getFavicon: async (_req, res) => {
      const sent = await sendFavicon(res as Response, { service: 'archive', distRoot: wiring.webDist });
      if (!sent) throw notFound('Not found');
    },
    getDocsAsset: async (req, res) => {
      const file = Object.hasOwn(DOCS_FILES, req.params.file) ? DOCS_FILES[req.params.file] : undefined;
      if (!file) throw notFound('Not found');
      await sendFile(res as Response, file, { maxAge: '1d' });
    },
  } satisfies ArchiveHandlers;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const swaggerUi = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ownDocs = path.join(here, '..', 'static', 'docs');
const DOCS_FILES: Readonly<Record<string, string>> = {
  'swagger-ui.css': path.join(swaggerUi, 'swagger-ui.css'),
  'swagger-ui.js': path.join(swaggerUi, 'swagger-ui-bundle.js'),
  'docs-init.js': path.join(ownDocs, 'docs-init.js'),
  'reference-init.js': path.join(ownDocs, 'reference-init.js'),
};
