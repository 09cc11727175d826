export * from './description.js';
export * from './free-port.js';
export * from './keys.mjs';
export * from './launcher.js';
export * from './private-files.mjs';
export * from './supervisor.js';
