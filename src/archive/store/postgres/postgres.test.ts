// The archive store's shared suites on PostgreSQL.
import { liveQueryCases } from '../live-queries.cases';
import { archiveStoreCases } from '../store.cases';

archiveStoreCases('postgresql');
liveQueryCases('postgresql');
