import type { Logger } from 'pino';

// Every request carries a child of its service's logger (set in createServiceApp).
declare global {
  namespace Express {
    interface Request {
      log: Logger;
    }
  }
}
