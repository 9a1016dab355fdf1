export * from './users.js';
export * from './sessions.js';
export * from './subscriptions.js';
export * from './meetings.js';
export * from './mail.js';
export * from './files.js';
export * from './chat.js';
export * from './mail-quota.js';
