/**
 * The SDKs in other languages, part of `npm run generate`: openapi-generator (version pinned in
 * openapitools.json; its jar is fetched from Maven Central by @openapitools/openapi-generator-cli on first
 * use) writes a Python, a Go and a Java client and a bash command-line wrapper from each bundled document
 * (generated/<service>/openapi.json), all in one run of its `batch` command. The options per language are
 * below; sdks/README.md says what each client can and cannot express of the documents.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT, SERVICES, type Service } from '../src/common/services';

export const LANGUAGES = ['python', 'go', 'java', 'bash'] as const;
export type Language = (typeof LANGUAGES)[number];

const VERSION = (JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;

const snake = (service: Service) => service.replaceAll('-', '_');

/** openapi-generator's generator and options for one language and service. */
function generatorFor(
  language: Language,
  service: Service,
): { generatorName: string; additionalProperties: Record<string, unknown>; [setting: string]: unknown } {
  switch (language) {
    case 'python':
      // urllib3, the generator's default: synchronous, as most Python callers of a REST API expect.
      return {
        generatorName: 'python',
        additionalProperties: {
          packageName: `specyard_${snake(service)}`,
          projectName: `specyard-${service}`,
          packageVersion: VERSION,
        },
      };
    case 'go':
      // The module path: specyard.local/sdks/<service> (a local path, taken in with a `replace`). The
      // subtitles document's schema `ServerConfiguration` would clash with the client's own type of
      // that name, so the Go model is called `MediaServerConfiguration`.
      return {
        generatorName: 'go',
        gitHost: 'specyard.local',
        gitUserId: 'sdks',
        gitRepoId: service,
        modelNameMappings: service === 'subtitles' ? { ServerConfiguration: 'MediaServerConfiguration' } : {},
        additionalProperties: {
          packageName: snake(service),
          packageVersion: VERSION,
          // Enum constants carry their type's name, so two enums with a shared value do not clash.
          enumClassPrefix: true,
          generateInterfaces: false,
          isGoSubmodule: false,
        },
      };
    case 'java':
      // java.net.http (no HTTP library to add) with Jackson; no generation date in the files.
      return {
        generatorName: 'java',
        additionalProperties: {
          library: 'native',
          groupId: 'specyard',
          artifactId: `specyard-${service}-client`,
          artifactVersion: VERSION,
          invokerPackage: `specyard.${snake(service)}`,
          apiPackage: `specyard.${snake(service)}.api`,
          modelPackage: `specyard.${snake(service)}.model`,
          hideGenerationTimestamp: true,
          openApiNullable: false,
          useJakartaEe: true,
          annotationLibrary: 'none',
        },
      };
    case 'bash':
      return {
        generatorName: 'bash',
        additionalProperties: {
          scriptName: bashWrapper(service),
          generateBashCompletion: true,
          generateZshCompletion: false,
          processMarkdown: false,
          apiKeyAuthEnvironmentVariable: `SPECYARD_${snake(service).toUpperCase()}_API_KEY`,
          curlOptions: '--silent --show-error',
          hostEnvironmentVariable: `SPECYARD_${snake(service).toUpperCase()}_HOST`,
          basicAuthEnvironmentVariable: `SPECYARD_${snake(service).toUpperCase()}_BASIC_AUTH`,
        },
      };
  }
}

/** What no caller of an SDK uses: CI files of other hosts, git helpers, other build tools' files. */
const IGNORED = [
  '.github/**',
  '.gitlab-ci.yml',
  '.travis.yml',
  'git_push.sh',
  'tox.ini',
  'build.gradle',
  'build.sbt',
  'settings.gradle',
  'gradle.properties',
  'gradle/**',
  'gradlew',
  'gradlew.bat',
  'api/openapi.yaml',
  'Dockerfile',
  '.gitignore',
  'test/**',
  'src/test/**',
];

const run = promisify(execFile);

/** Writes `<outDir>/<language>/<service>/` for every language and service from `<specDir>/<service>/openapi.json`. */
export async function generateSdks(specDir: string, outDir: string): Promise<void> {
  const work = await mkdtemp(path.join(tmpdir(), 'specyard-sdks-'));
  try {
    const configs: string[] = [];
    for (const language of LANGUAGES) {
      for (const service of SERVICES) {
        const file = path.join(work, `${language}-${service}.json`);
        const target = path.join(outDir, language, service);
        // The generator follows an ignore file it finds in the output folder (and keeps it: removed below).
        await mkdir(target, { recursive: true });
        await writeFile(path.join(target, '.openapi-generator-ignore'), `${IGNORED.join('\n')}\n`);
        await writeFile(
          file,
          JSON.stringify({
            ...generatorFor(language, service),
            inputSpec: path.join(specDir, service, 'openapi.json'),
            outputDir: target,
            globalProperties: { apiTests: 'false', modelTests: 'false' },
          }),
        );
        configs.push(file);
      }
    }
    await mkdir(outDir, { recursive: true });
    const cli = path.join(ROOT, 'node_modules/.bin/openapi-generator-cli');
    try {
      await run(cli, ['batch', '--fail-fast', '--threads', '2', ...configs], {
        cwd: ROOT,
        maxBuffer: 64 * 1024 * 1024,
      });
    } catch (error) {
      const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
      throw new Error(`openapi-generator failed:\n${stderr || stdout}`);
    }
    await removeIgnoredLeftovers(outDir);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * The generator lists every file it wrote in `.openapi-generator/FILES`; its own ignore file is not wanted.
 * The bash wrappers are commands: it writes them 0644, they are made executable (and committed 100755), so
 * `generated/sdks/bash/fuel/specyard-fuel ...` runs as the README shows it.
 */
async function removeIgnoredLeftovers(outDir: string): Promise<void> {
  for (const language of await readdir(outDir)) {
    for (const service of await readdir(path.join(outDir, language))) {
      await rm(path.join(outDir, language, service, '.openapi-generator-ignore'), { force: true });
      if (language === 'bash') await chmod(path.join(outDir, language, service, bashWrapper(service)), 0o755);
    }
  }
}

/** The bash wrapper of a service, `specyard-<service>`. */
export const bashWrapper = (service: string) => `specyard-${service}`;
