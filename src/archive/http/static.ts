import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type RequestHandler, Router } from 'express';

const here = path.dirname(fileURLToPath(import.meta.url));
const swaggerUi = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/**
 * `/static/docs/*`: the renderer of `/docs` and `/redoc`, served from the viewer itself so the pages work
 * under the same-origin content security policy.
 */
export function docsAssets(): RequestHandler {
  const router = Router();
  const file = (name: string, from: string) =>
    router.get(`/static/docs/${name}`, (_req, res) => res.sendFile(from, { maxAge: '1d' }));
  file('swagger-ui.css', path.join(swaggerUi, 'swagger-ui.css'));
  file('swagger-ui.js', path.join(swaggerUi, 'swagger-ui-bundle.js'));
  router.use('/static/docs', express.static(path.join(here, 'static', 'docs'), { maxAge: '1d' }));
  return router;
}
