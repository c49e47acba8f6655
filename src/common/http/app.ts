import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Logger } from 'pino';
import { loadBundledDocument } from '../documents';
import { recordRequest } from '../metrics';
import type { OpenApiNode } from '../openapi';
import type { Service } from '../services';
import { type FrontDoorAnswers, type FrontDoorOptions, frontDoor } from './front-door';
import { matchedOperation, OperationTable } from './matched-operation';
import { refuseNulText } from './nul-text';
import {
  type MountableHandlers,
  type OperationHooks,
  operationDispatcher,
  runOperationHooks,
} from './operations';

export interface ServiceAppOptions {
  service: Service;
  /** The service's `Handlers<operations>` map. */
  handlers: MountableHandlers;
  logger: Logger;
  /** Turns any error (validation, domain, unexpected) into this API's documented answer. */
  errorMapper: ErrorRequestHandler;
  /** The front door's answers to what it does not hand on: 400, 404, 405, a CORS preflight. */
  answers: FrontDoorAnswers;
  /** Responses are validated in tests and development, never silently dropped (VALIDATE_RESPONSES). */
  validateResponses: boolean;
  /** How the front door matches (the media server's base path, its plugin segment, plugin state). */
  matching?: Pick<FrontDoorOptions, 'basePath' | 'match' | 'served'>;
  /** Headers of every answer, the front door's own included (security headers, CORS); they never answer. */
  headers?: RequestHandler[];
  /** Checks of every matched operation, before its hooks (authentication, access levels). */
  before?: RequestHandler[];
  /** Work that belongs to one operation, run for it only before its body is read (limits, body readers). */
  hooks?: OperationHooks;
  /** What reads the body (default: JSON up to `jsonLimit`). */
  bodyReaders?: RequestHandler[];
  allowUnknownQueryParameters?: boolean;
  /** Largest JSON body accepted. */
  jsonLimit?: string;
}

/**
 * One pipeline for the three services. The front door answers every request it cannot match; what it hands
 * on has exactly one operation, and everything after it works for that operation: the service's checks,
 * the operation's hooks, the body, the validator (which must find the same operation), the refusal of
 * text holding U+0000 (nul-text.ts) and the operation's own handler.
 */
export function createServiceApp(options: ServiceAppOptions): Express {
  const doc = loadBundledDocument(options.service);
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(requestLogger(options.logger, options.service));
  app.use(noSniff);
  for (const middleware of options.headers ?? []) app.use(middleware);
  app.use(frontDoor({ table: new OperationTable(doc), answers: options.answers, ...options.matching }));
  // From here on every request has its operation.
  for (const middleware of options.before ?? []) app.use(middleware);
  app.use(runOperationHooks(doc, options.hooks ?? {}));
  for (const reader of options.bodyReaders ?? [express.json({ limit: options.jsonLimit ?? '1mb' })]) {
    app.use(reader);
  }
  app.use(validator(doc, options));
  app.use(refuseNulText(options.answers.notFound));
  app.use(operationDispatcher(options.service, doc, options.handlers));
  app.use(options.errorMapper);
  return app;
}

/**
 * express-openapi-validator over the document, told no more than the front door's spelling; right after it
 * looks the route up, the operation it found must be the front door's, or the request goes no further.
 */
function validator(doc: OpenApiNode, options: ServiceAppOptions): RequestHandler[] {
  const steps = OpenApiValidator.middleware({
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
  }) as RequestHandler[];
  const lookup = steps.findIndex((step) => step.name === 'metadataMiddleware');
  if (lookup < 0) throw new Error('express-openapi-validator: no route lookup step to check');
  steps.splice(lookup + 1, 0, sameOperation);
  return [headAsGet, ...steps, headAgain];
}

/**
 * The front door answers HEAD with the path's GET (matched-operation.ts), but the validator knows only the
 * document's methods and found no operation for it (every HEAD answered 500). It is validated as the GET
 * it is; Node leaves the body out of a HEAD's answer whatever the handler writes.
 */
const asGet = new WeakSet<object>();
const headAsGet: RequestHandler = (req, _res, next) => {
  if (req.method === 'HEAD' && matchedOperation(req)?.method === 'get') {
    asGet.add(req);
    req.method = 'GET';
  }
  next();
};
const headAgain: RequestHandler = (req, _res, next) => {
  if (asGet.has(req)) req.method = 'HEAD';
  next();
};

const sameOperation: RequestHandler = (req, _res, next) => {
  const front = matchedOperation(req)?.operationId;
  const seen = (req as { openapi?: { schema?: { operationId?: string } } }).openapi?.schema?.operationId;
  if (front !== undefined && seen === front) return next();
  next(
    new Error(
      `the validator found ${seen ?? 'no operation'} where the front door matched ${front ?? 'none'}`,
    ),
  );
};

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
