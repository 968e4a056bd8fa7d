declare module 'koa' {
  interface Request {
    body?: unknown;
  }
}
export {};
