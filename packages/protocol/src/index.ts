export * from './constants.js';
export * from './entities.js';
export * from './health.js';
