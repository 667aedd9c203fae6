// A small dense simplex for the fitting LP (written for this tool; ~35 variables, a few thousand constraints).
//
// Primal (what we want):   minimize c.w   subject to   A w >= b,  w >= 0        (A: m x n, all a_ij >= 0)
// We solve its dual:       maximize b.u   subject to   A^T u <= c, u >= 0
// whose tableau has only n rows (one per weight), so each pivot costs O(n * (m + n)). The slack basis is feasible
// because c >= 0. At the optimum the primal weights are the reduced costs of the slack columns.
// Rows of the primal with b_i <= 0 can never be binding-and-useful; they stay in (harmless).

export function solveLP(A, b, c, { maxIter = 200000 } = {}) {
  const m = A.length, n = c.length;
  const W = m + n + 1;
  const T = new Float64Array((n + 1) * W);
  for (let r = 0; r < n; r++) {
    const row = r * W;
    for (let i = 0; i < m; i++) T[row + i] = A[i][r];
    T[row + m + r] = 1;
    T[row + W - 1] = c[r];
  }
  const obj = n * W;
  for (let i = 0; i < m; i++) T[obj + i] = -b[i];
  const basis = new Int32Array(n);
  for (let r = 0; r < n; r++) basis[r] = m + r;
  const EPS = 1e-11;
  let iter = 0, degenerate = 0, bland = false;
  for (; iter < maxIter; iter++) {
    // entering column
    let e = -1, best = -1e-9;
    if (!bland) {
      for (let j = 0; j < W - 1; j++) if (T[obj + j] < best) { best = T[obj + j]; e = j; }
    } else {
      for (let j = 0; j < W - 1; j++) if (T[obj + j] < -1e-9) { e = j; break; }
    }
    if (e < 0) break; // optimal
    // ratio test
    let pr = -1, bestRatio = Infinity;
    for (let r = 0; r < n; r++) {
      const a = T[r * W + e];
      if (a > EPS) {
        const ratio = T[r * W + W - 1] / a;
        if (ratio < bestRatio - 1e-12 || (Math.abs(ratio - bestRatio) <= 1e-12 && basis[r] < basis[pr])) { bestRatio = ratio; pr = r; }
      }
    }
    if (pr < 0) throw new Error('LP unbounded (a constraint row has no positive feature?)');
    if (bestRatio < 1e-12) { if (++degenerate > 50) bland = true; } else { degenerate = 0; bland = false; }
    // pivot
    const prow = pr * W;
    const pv = T[prow + e];
    for (let j = 0; j < W; j++) T[prow + j] /= pv;
    for (let r = 0; r <= n; r++) {
      if (r === pr) continue;
      const row = r * W;
      const f = T[row + e];
      if (f === 0) continue;
      for (let j = 0; j < W; j++) T[row + j] -= f * T[prow + j];
    }
    basis[pr] = e;
  }
  if (iter >= maxIter) throw new Error('LP: iteration limit');
  const w = new Float64Array(n);
  for (let j = 0; j < n; j++) w[j] = Math.max(0, T[obj + m + j]);
  // dual values (how much each primal constraint "costs"), for diagnostics / constraint dropping
  const u = new Float64Array(m);
  for (let r = 0; r < n; r++) if (basis[r] < m) u[basis[r]] = T[r * W + W - 1];
  return { w, u, iter, objective: T[obj + W - 1] };
}
