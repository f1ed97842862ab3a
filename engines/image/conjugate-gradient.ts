// Jacobi-preconditioned conjugate gradient for a symmetric positive definite system A·u = rhs, A given only as a
// product (`apply`) and its diagonal. Float32 planes, sums in doubles: the colour hints' systems have one
// unknown per pixel of the chroma plane and a handful of non-zeros per row, so a matrix is never built.

export type SolveOptions = {
  /** Most iterations (each one product with A). */
  iterations?: number;
  /** Stops once the residual's norm is this share of the right-hand side's. */
  tolerance?: number;
};

/**
 * Solves A·u = rhs from the start `u` (changed in place and returned). `apply(x, out)` writes A·x into `out`;
 * `diag` is A's diagonal, the preconditioner. Rows A leaves out (zero in `apply`, in `rhs` and in `u`) stay zero.
 */
export function conjugateGradient(
  apply: (x: Float32Array, out: Float32Array) => void, diag: Float32Array, rhs: Float32Array, u: Float32Array,
  { iterations = 400, tolerance = 1e-4 }: SolveOptions = {},
): Float32Array {
  const n = u.length;
  const r = new Float32Array(n), z = new Float32Array(n), p = new Float32Array(n), q = new Float32Array(n);
  apply(u, q);
  for (let i = 0; i < n; i++) {
    r[i] = rhs[i]! - q[i]!;
    z[i] = r[i]! / diag[i]!;
    p[i] = z[i]!;
  }
  let rz = 0;
  for (let i = 0; i < n; i++) rz += r[i]! * z[i]!;
  const r0 = Math.sqrt(rhs.reduce((s, v) => s + v * v, 0)) || 1;
  for (let it = 0; it < iterations; it++) {
    apply(p, q);
    let pq = 0;
    for (let i = 0; i < n; i++) pq += p[i]! * q[i]!;
    if (pq <= 0) break;
    const alpha = rz / pq;
    let rr = 0;
    for (let i = 0; i < n; i++) {
      u[i]! += alpha * p[i]!;
      r[i]! -= alpha * q[i]!;
      rr += r[i]! * r[i]!;
    }
    if (Math.sqrt(rr) < tolerance * r0) break;
    let rz2 = 0;
    for (let i = 0; i < n; i++) {
      z[i] = r[i]! / diag[i]!;
      rz2 += r[i]! * z[i]!;
    }
    const beta = rz2 / rz;
    rz = rz2;
    for (let i = 0; i < n; i++) p[i] = z[i]! + beta * p[i]!;
  }
  return u;
}
