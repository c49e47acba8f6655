import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Logger } from 'pino';
import { loadBundledDocument } from '../documents';
import { recordRequest } from '../metrics';
import type { Service } from '../services';
import { matchedOperation, matchOperations, OperationTable, splitUrl } from './matched-operation';
import { type MountableHandlers, mountOperations } from './operations';

export interface ServiceAppOptions {
  service: Service;
  /** The service's `Handlers<operations>` map. */
  handlers: MountableHandlers;
  logger: Logger;
  /** Turns any error (validation, domain, unexpected) into this API's documented answer. */
  errorMapper: ErrorRequestHandler;
  /** The answer for a path the document does not know. */
  notFound: RequestHandler;
  /**
   * The answer for a method the document does not give a path it knows (`Allow` is set already); without
   * it such a request gets `notFound` (the subtitles host answers 404 there, as the media server does).
   */
  methodNotAllowed?: RequestHandler;
  /** Responses are validated in tests and development, never silently dropped (VALIDATE_RESPONSES). */
  validateResponses: boolean;
  /**
   * The front door: finds the request's operation and rewrites the request to the document's spelling
   * (default: `matchOperations`; the subtitles gate also strips its base path). Nothing before it decides.
   */
  frontDoor?: RequestHandler;
  /** Middleware before validation, after the front door: security headers, authentication. */
  before?: RequestHandler[];
  allowUnknownQueryParameters?: boolean;
  /** Largest JSON body accepted. */
  jsonLimit?: string;
}

export function createServiceApp(options: ServiceAppOptions): Express {
  const doc = loadBundledDocument(options.service);
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(requestLogger(options.logger, options.service));
  app.use(noSniff);
  app.use(options.frontDoor ?? matchOperations(doc));
  for (const middleware of options.before ?? []) app.use(middleware);
  app.use(express.json({ limit: options.jsonLimit ?? '1mb' }));
  app.use(
    OpenApiValidator.middleware({
      // The validator resolves and may annotate the document: give it its own copy.
      apiSpec: structuredClone(doc) as never,
      validateRequests: {
        allowUnknownQueryParameters: options.allowUnknownQueryParameters ?? false,
        // Query and path parameters are still coerced from text; JSON bodies must carry the
        // documented types (`{"lat": "40"}` is a 400, not a number).
        coerceTypes: false,
      },
      validateResponses: options.validateResponses ? { onError: undefined } : false,
      // Each service authenticates in its own middleware, with its own documented answers.
      validateSecurity: false,
      ignoreUndocumented: true,
      validateFormats: true,
    }),
  );
  const router = express.Router();
  mountOperations(router, doc, options.handlers);
  app.use(router);
  if (options.methodNotAllowed)
    app.use(refuseOtherMethods(new OperationTable(doc), options.methodNotAllowed));
  app.use(options.notFound);
  app.use(options.errorMapper);
  return app;
}

/** A request no operation took, on a path the document knows under other methods: 405 with `Allow`. */
function refuseOtherMethods(table: OperationTable, answer: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const allowed = matchedOperation(req) ? [] : table.methodsAt(splitUrl(req.url).pathname);
    if (allowed.length === 0) return next();
    res.setHeader('Allow', allowed.join(', '));
    answer(req, res, next);
  };
}

/** Every answer of the three services, errors and 404s included: the browser takes the declared type as it is. */
const noSniff: RequestHandler = (_req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  next();
};

/**
 * The one request logger of the three services: each request gets a child logger carrying its id
 * (`req.log`, so every line a handler writes names the request), and one JSON line once answered:
 * id, method, path without the query (it may carry a key or search text), status, time. Cookies, tokens
 * and bodies are never logged. With a service named, the answer is also counted in the metrics under
 * the operationId the front door matched (`unmatched` when none did).
 */
export function requestLogger(logger: Logger, service?: Service): RequestHandler {
  let counter = 0;
  return (req, res, next) => {
    counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
    req.log = logger.child({ req: counter.toString(36) });
    const started = process.hrtime.bigint();
    const path = req.originalUrl.split('?')[0];
    res.once('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      req.log.info({ method: req.method, path, status: res.statusCode, ms: Math.round(ms) }, 'request');
      if (service) {
        const operation = matchedOperation(req)?.operationId ?? 'unmatched';
        recordRequest(service, operation, req.method, res.statusCode, ms / 1000);
      }
    });
    next();
  };
}
