// The archive store's shared suites on SQLite.
import { liveQueryCases } from '../live-queries.cases';
import { archiveStoreCases } from '../store.cases';

archiveStoreCases('sqlite');
liveQueryCases('sqlite');
