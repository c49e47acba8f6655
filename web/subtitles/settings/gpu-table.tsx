import type { Gpu } from '../api';

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

const GPU_FLAGS: [keyof Omit<Gpu, 'RecommendedVariant'>, string][] = [
  ['HasVendorAGpu', 'A device node of the first GPU vendor exists, or its status tool ran.'],
  ['HasCudaLibrary', 'A CUDA runtime library (libcuda.so.1 or libcudart.so) was found.'],
  ['HasVendorBGpu', 'The device node /dev/kfd exists, or rocm-smi ran.'],
  ['HasRocmLibrary', 'The ROCm library libamdhip64.so was found.'],
  ['HasRenderDevice', 'The render device /dev/dri/renderD128 exists.'],
  ['HasVulkanLibrary', 'The Vulkan library libvulkan.so.1 was found.'],
  ['HasOpenMP', 'libgomp.so.1 was found (informational; without it the self-contained noavx build is used).'],
  [
    'HasAvx',
    'The CPU has the AVX2-class instructions the prebuilt binaries need; without them only *-noavx builds run.',
  ],
];

/** The graphics hardware found, and what each can speed up. */
export function GpuTable(props: { gpu: Gpu }) {
  return (
    <table class="flags">
      <caption>Hardware detection</caption>
      <thead>
        <tr>
          <th scope="col">Flag</th>
          <th scope="col">Value</th>
          <th scope="col">What it means</th>
        </tr>
      </thead>
      <tbody>
        {GPU_FLAGS.map(([flag, meaning]) => (
          <tr key={flag}>
            <th scope="row">
              <code>{flag}</code>
            </th>
            <td class={props.gpu[flag] ? 'yes' : 'no'}>{yesNo(props.gpu[flag])}</td>
            <td>{meaning}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
