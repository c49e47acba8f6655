import type { operations } from '../../../../generated/archive/types';
import type { OperationHandler } from '../../../common/http/operations';

export type Handler<K extends keyof operations> = OperationHandler<operations[K]>;
