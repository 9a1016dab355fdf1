import type { TestProject } from 'vitest/node';
import { startServer } from './server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
  }
}

/** One shared server for the browser suite; suites that need other settings start their own. */
export default async function setup(project: TestProject) {
  const server = await startServer();
  project.provide('baseURL', server.url);
  return async () => {
    await server.stop();
  };
}
