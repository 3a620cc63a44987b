// `npm run test:webgpu-node`: the webgpu device's checks (the browser page's, tools/browser/webgpu.ts) in Node on
// the npm package `webgpu` (Dawn), the "Node too". Runs tools/webgpu-node/checks.ts as a plain child
// process (no test runner) with `--expose-gc` (the memory check collects before it samples) and, when Debian's
// chromium is installed and no Vulkan driver is named, the environment that gives Dawn its SwiftShader adapter
// (tools/webgpu-node/dawn.ts `vulkanEnv`: the dynamic loader reads LD_LIBRARY_PATH only at start, hence the
// child). Prints the child's lines; exits 1 on a failed check, a native crash (a signal), no summary line, more
// than TIMEOUT_MS, or a child that does not exit by itself within EXIT_GRACE_MS of its summary; exits 0 when
// every check passed or when there is no adapter (the child says why). No PyTorch counterpart.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { vulkanEnv } from './dawn.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const SUMMARY = 'webgpu-node: done:';
/** The whole run: ~2 minutes here on SwiftShader (as the browser page); a loaded machine gets headroom. */
const TIMEOUT_MS = 480_000;
/** How long the child may live after its summary line: Node must exit by itself once the work is done. */
const EXIT_GRACE_MS = 15_000;

function main(): Promise<number> {
  const vulkan = vulkanEnv(process.env);
  const env = { ...process.env, ...vulkan };
  console.log(
    vulkan === null
      ? `webgpu-node: Vulkan environment as given (VK_ICD_FILENAMES=${process.env['VK_ICD_FILENAMES'] ?? ''})`
      : `webgpu-node: VK_ICD_FILENAMES=${vulkan['VK_ICD_FILENAMES']} LD_LIBRARY_PATH=${vulkan['LD_LIBRARY_PATH']}`,
  );
  const start = performance.now();
  const seconds = (): string => ((performance.now() - start) / 1000).toFixed(1);
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', join(HERE, 'checks.ts')], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let summary: string | null = null;
  let failure: string | null = null;
  let buffered = '';
  const kill = (why: string): void => {
    failure ??= why;
    child.kill('SIGKILL');
  };
  let grace: NodeJS.Timeout | undefined;
  const timeout = setTimeout(() => kill(`the checks did not finish in ${TIMEOUT_MS / 1000} s`), TIMEOUT_MS);
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    process.stdout.write(chunk);
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) {
      if (!line.startsWith(SUMMARY) || summary !== null) continue;
      summary = line.slice(SUMMARY.length).trim();
      grace = setTimeout(
        () => kill(`the Node process did not exit by itself within ${EXIT_GRACE_MS / 1000} s of its last check`),
        EXIT_GRACE_MS,
      );
    }
  });
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timeout);
      clearTimeout(grace);
      if (failure === null && signal !== null) failure = `the child died of ${signal} (a native crash in Dawn?)`;
      if (failure === null && summary === null) failure = `the child exited with code ${code} before its summary line`;
      if (failure !== null) {
        console.log(`webgpu-node: FAILED after ${seconds()} s: ${failure}`);
        resolve(1);
        return;
      }
      console.log(`webgpu-node: ${summary} (${seconds()} s, the process exited by itself with code ${code})`);
      resolve(code === 0 ? 0 : 1);
    });
  });
}

main().then((code) => {
  process.exitCode = code;
});
