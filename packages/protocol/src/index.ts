export * from './constants.js';
export * from './entities.js';
export * from './health.js';
export * from './ws.js';
export * from './subscription.js';
export * from './meetings.js';
export * from './ai.js';
export * from './backgrounds.js';
