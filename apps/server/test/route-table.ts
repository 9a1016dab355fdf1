/** A route of the running app: its method and full path as Fastify registered it. */
export interface LiveRoute {
  method: string;
  path: string;
}

/** Every method Fastify knows; a route registered with all of them is listed as `*`. */
export const ALL_METHODS = ['GET', 'HEAD', 'TRACE', 'DELETE', 'OPTIONS', 'PATCH', 'PUT', 'POST', 'QUERY'];

/**
 * Reads the app's route tree (`app.printRoutes({ commonPrefix: false })`) into method + full path,
 * so that tests can go over every route the app really has (bad input, authorization).
 */
export function liveRoutes(tree: string): LiveRoute[] {
  const out: LiveRoute[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!m) continue;
    const depth = (m[1] ?? '').length / 4;
    const parent = depth > 0 ? (stack[depth - 1] ?? '') : '';
    const segment = m[2] ?? '';
    // A wildcard child is printed without its slash: `/oidc` then `*` is `/oidc/*`.
    const full = segment === '*' && !parent.endsWith('/') ? `${parent}/*` : parent + segment;
    stack[depth] = full;
    stack.length = depth + 1;
    for (const method of (m[3] ?? '').split(',').map((s) => s.trim())) {
      if (method) out.push({ method, path: full });
    }
  }
  return out;
}
