import os from 'node:os';

/** The machine a figure was measured on, recorded with every result. */
export function machine() {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    platform: `${os.type()} ${os.release()}`,
    node: process.version,
  };
}
