/** The import fixtures folder (real desktop-app exports), also the demo archive's source of a voice note. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '../importers/fixtures');
