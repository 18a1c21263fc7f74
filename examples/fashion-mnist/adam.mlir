// Fashion-MNIST MLP 784-256-128-10 (ReLU), softmax cross-entropy (mean over
// the batch), Adam (Kingma & Ba 2015, PyTorch torch.optim.Adam defaults:
// lr = 1e-3, beta1 = 0.9, beta2 = 0.999, eps = 1e-8, bias correction with the
// step counter t), static batch B = 128. Same model, forward, loss and
// backward as mlp.mlir; only the optimizer differs. The optimizer state is
// the moments m, v of every parameter and the step counter t (tensor<i32>,
// amp.role = "opt_state"): all of it is returned unchanged on a skipped
// (overflowing) step, t included, so bias correction never counts a skip.

// Elementwise / broadcast maps.
#id1     = affine_map<(d0) -> (d0)>
#id2     = affine_map<(d0, d1) -> (d0, d1)>
#rows    = affine_map<(d0, d1) -> (d0)>
#cols    = affine_map<(d0, d1) -> (d1)>
#scalar1 = affine_map<(d0) -> ()>
#scalar2 = affine_map<(d0, d1) -> ()>
// Transposed contractions over (i, j, k), result C[i, j]:
//   TN: C = A^T * B   (C[i,j] = sum_k A[k,i] * B[k,j])   -- weight gradients
//   NT: C = A * B^T   (C[i,j] = sum_k A[i,k] * B[j,k])   -- input gradients
#tn_a = affine_map<(i, j, k) -> (k, i)>
#tn_b = affine_map<(i, j, k) -> (k, j)>
#nt_a = affine_map<(i, j, k) -> (i, k)>
#nt_b = affine_map<(i, j, k) -> (j, k)>
#c_ij = affine_map<(i, j, k) -> (i, j)>

module {

func.func @train_step(
    %w1: tensor<784x256xf32> {amp.role = "param"},
    %b1: tensor<256xf32> {amp.role = "param"},
    %w2: tensor<256x128xf32> {amp.role = "param"},
    %b2: tensor<128xf32> {amp.role = "param"},
    %w3: tensor<128x10xf32> {amp.role = "param"},
    %b3: tensor<10xf32> {amp.role = "param"},
    %m_w1: tensor<784x256xf32> {amp.role = "opt_state"},
    %m_b1: tensor<256xf32> {amp.role = "opt_state"},
    %m_w2: tensor<256x128xf32> {amp.role = "opt_state"},
    %m_b2: tensor<128xf32> {amp.role = "opt_state"},
    %m_w3: tensor<128x10xf32> {amp.role = "opt_state"},
    %m_b3: tensor<10xf32> {amp.role = "opt_state"},
    %v_w1: tensor<784x256xf32> {amp.role = "opt_state"},
    %v_b1: tensor<256xf32> {amp.role = "opt_state"},
    %v_w2: tensor<256x128xf32> {amp.role = "opt_state"},
    %v_b2: tensor<128xf32> {amp.role = "opt_state"},
    %v_w3: tensor<128x10xf32> {amp.role = "opt_state"},
    %v_b3: tensor<10xf32> {amp.role = "opt_state"},
    %t: tensor<i32> {amp.role = "opt_state"},
    %x: tensor<128x784xf32> {amp.role = "input"},
    %y: tensor<128xi32> {amp.role = "label"})
  -> (tensor<f32> {amp.role = "loss"},
      tensor<784x256xf32> {amp.updates = 0 : i64},
      tensor<256xf32> {amp.updates = 1 : i64},
      tensor<256x128xf32> {amp.updates = 2 : i64},
      tensor<128xf32> {amp.updates = 3 : i64},
      tensor<128x10xf32> {amp.updates = 4 : i64},
      tensor<10xf32> {amp.updates = 5 : i64},
      tensor<784x256xf32> {amp.updates = 6 : i64},
      tensor<256xf32> {amp.updates = 7 : i64},
      tensor<256x128xf32> {amp.updates = 8 : i64},
      tensor<128xf32> {amp.updates = 9 : i64},
      tensor<128x10xf32> {amp.updates = 10 : i64},
      tensor<10xf32> {amp.updates = 11 : i64},
      tensor<784x256xf32> {amp.updates = 12 : i64},
      tensor<256xf32> {amp.updates = 13 : i64},
      tensor<256x128xf32> {amp.updates = 14 : i64},
      tensor<128xf32> {amp.updates = 15 : i64},
      tensor<128x10xf32> {amp.updates = 16 : i64},
      tensor<10xf32> {amp.updates = 17 : i64},
      tensor<i32> {amp.updates = 18 : i64})
  attributes {amp.train_step} {
  // Constants used inside linalg bodies are defined locally in each body:
  //   0.0078125 = 1/B (B = 128, exact in f32), lr = 0.05, mu = 0.9.
  %zero = arith.constant 0.0 : f32
  %neg_inf = arith.constant 0xFF800000 : f32

  // ---------------- forward layer 1: h1 = relu(x * W1 + b1) ----------------
  %e_128x256 = tensor.empty() : tensor<128x256xf32>
  %acc1 = linalg.fill ins(%zero : f32) outs(%e_128x256 : tensor<128x256xf32>) -> tensor<128x256xf32>
  %xw1 = linalg.matmul ins(%x, %w1 : tensor<128x784xf32>, tensor<784x256xf32>)
                       outs(%acc1 : tensor<128x256xf32>) -> tensor<128x256xf32>
  %z1 = linalg.generic {indexing_maps = [#id2, #cols, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%xw1, %b1 : tensor<128x256xf32>, tensor<256xf32>) outs(%e_128x256 : tensor<128x256xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<128x256xf32>
  %h1 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%z1 : tensor<128x256xf32>) outs(%e_128x256 : tensor<128x256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c0 = arith.constant 0.0 : f32
    %r = arith.maximumf %a, %c0 : f32
    linalg.yield %r : f32
  } -> tensor<128x256xf32>

  // ---------------- forward layer 2: h2 = relu(h1 * W2 + b2) ---------------
  %e_128x128 = tensor.empty() : tensor<128x128xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e_128x128 : tensor<128x128xf32>) -> tensor<128x128xf32>
  %h1w2 = linalg.matmul ins(%h1, %w2 : tensor<128x256xf32>, tensor<256x128xf32>)
                        outs(%acc2 : tensor<128x128xf32>) -> tensor<128x128xf32>
  %z2 = linalg.generic {indexing_maps = [#id2, #cols, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%h1w2, %b2 : tensor<128x128xf32>, tensor<128xf32>) outs(%e_128x128 : tensor<128x128xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<128x128xf32>
  %h2 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%z2 : tensor<128x128xf32>) outs(%e_128x128 : tensor<128x128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c0 = arith.constant 0.0 : f32
    %r = arith.maximumf %a, %c0 : f32
    linalg.yield %r : f32
  } -> tensor<128x128xf32>

  // ---------------- forward layer 3: z3 = h2 * W3 + b3 (logits) ------------
  %e_128x10 = tensor.empty() : tensor<128x10xf32>
  %acc3 = linalg.fill ins(%zero : f32) outs(%e_128x10 : tensor<128x10xf32>) -> tensor<128x10xf32>
  %h2w3 = linalg.matmul ins(%h2, %w3 : tensor<128x128xf32>, tensor<128x10xf32>)
                        outs(%acc3 : tensor<128x10xf32>) -> tensor<128x10xf32>
  %z3 = linalg.generic {indexing_maps = [#id2, #cols, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%h2w3, %b3 : tensor<128x10xf32>, tensor<10xf32>) outs(%e_128x10 : tensor<128x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<128x10xf32>

  // ---------------- loss: stable softmax cross-entropy, mean over batch ----
  // Row max m[i] = max_j z3[i, j].
  %e_128 = tensor.empty() : tensor<128xf32>
  %max_init = linalg.fill ins(%neg_inf : f32) outs(%e_128 : tensor<128xf32>) -> tensor<128xf32>
  %m = linalg.generic {indexing_maps = [#id2, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%z3 : tensor<128x10xf32>) outs(%max_init : tensor<128xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>
  // ez[i, j] = exp(z3[i, j] - m[i]).
  %ez = linalg.generic {indexing_maps = [#id2, #rows, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%z3, %m : tensor<128x10xf32>, tensor<128xf32>) outs(%e_128x10 : tensor<128x10xf32>) {
  ^bb0(%a: f32, %mx: f32, %o: f32):
    %d = arith.subf %a, %mx : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<128x10xf32>
  // Row sum s[i] = sum_j ez[i, j].
  %sum_init = linalg.fill ins(%zero : f32) outs(%e_128 : tensor<128xf32>) -> tensor<128xf32>
  %s = linalg.generic {indexing_maps = [#id2, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%ez : tensor<128x10xf32>) outs(%sum_init : tensor<128xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>
  // One-hot labels: onehot[i, j] = (j == y[i]) ? 1 : 0.
  %onehot = linalg.generic {indexing_maps = [#rows, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<128xi32>) outs(%e_128x10 : tensor<128x10xf32>) {
  ^bb0(%lbl: i32, %o: f32):
    %c0 = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %j = linalg.index 1 : index
    %lbl_idx = arith.index_cast %lbl : i32 to index
    %eq = arith.cmpi eq, %j, %lbl_idx : index
    %r = arith.select %eq, %one, %c0 : f32
    linalg.yield %r : f32
  } -> tensor<128x10xf32>
  // Logit of the true class: zy[i] = sum_j onehot[i, j] * z3[i, j].
  %zy_init = linalg.fill ins(%zero : f32) outs(%e_128 : tensor<128xf32>) -> tensor<128xf32>
  %zy = linalg.generic {indexing_maps = [#id2, #id2, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%z3, %onehot : tensor<128x10xf32>, tensor<128x10xf32>) outs(%zy_init : tensor<128xf32>) {
  ^bb0(%a: f32, %oh: f32, %acc: f32):
    %p = arith.mulf %a, %oh : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>
  // loss = (1/B) * sum_i (m[i] + log(s[i]) - zy[i]).
  %e_0d = tensor.empty() : tensor<f32>
  %loss_init = linalg.fill ins(%zero : f32) outs(%e_0d : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#id1, #id1, #id1, #scalar1], iterator_types = ["reduction"]}
      ins(%m, %s, %zy : tensor<128xf32>, tensor<128xf32>, tensor<128xf32>) outs(%loss_init : tensor<f32>) {
  ^bb0(%mx: f32, %sm: f32, %zt: f32, %acc: f32):
    %c_inv_b = arith.constant 0.0078125 : f32
    %ls = math.log %sm : f32
    %lse = arith.addf %mx, %ls : f32
    %nll = arith.subf %lse, %zt : f32
    %nll_b = arith.mulf %nll, %c_inv_b : f32
    %r = arith.addf %nll_b, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>

  // ---------------- backward seed -------------------------------------------
  %seed = amp.loss_grad %loss : tensor<f32>

  // ---------------- backward layer 3 ----------------------------------------
  // dz3 = (softmax(z3) - onehot) * (seed / B).
  %dz3 = linalg.generic {indexing_maps = [#id2, #rows, #id2, #scalar2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%ez, %s, %onehot, %seed : tensor<128x10xf32>, tensor<128xf32>, tensor<128x10xf32>, tensor<f32>)
      outs(%e_128x10 : tensor<128x10xf32>) {
  ^bb0(%a: f32, %sm: f32, %oh: f32, %sd: f32, %o: f32):
    %c_inv_b = arith.constant 0.0078125 : f32
    %p = arith.divf %a, %sm : f32
    %d = arith.subf %p, %oh : f32
    %scale = arith.mulf %sd, %c_inv_b : f32
    %r = arith.mulf %d, %scale : f32
    linalg.yield %r : f32
  } -> tensor<128x10xf32>
  // gw3 = h2^T * dz3.
  %gw3_init = linalg.fill ins(%zero : f32) outs(%e_128x10 : tensor<128x10xf32>) -> tensor<128x10xf32>
  %gw3_raw = linalg.generic {indexing_maps = [#tn_a, #tn_b, #c_ij], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%h2, %dz3 : tensor<128x128xf32>, tensor<128x10xf32>) outs(%gw3_init : tensor<128x10xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<128x10xf32>
  // gb3 = column sum of dz3.
  %e_10 = tensor.empty() : tensor<10xf32>
  %gb3_init = linalg.fill ins(%zero : f32) outs(%e_10 : tensor<10xf32>) -> tensor<10xf32>
  %gb3_raw = linalg.generic {indexing_maps = [#id2, #cols], iterator_types = ["reduction", "parallel"]}
      ins(%dz3 : tensor<128x10xf32>) outs(%gb3_init : tensor<10xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<10xf32>
  // dh2 = dz3 * W3^T.
  %dh2_init = linalg.fill ins(%zero : f32) outs(%e_128x128 : tensor<128x128xf32>) -> tensor<128x128xf32>
  %dh2 = linalg.generic {indexing_maps = [#nt_a, #nt_b, #c_ij], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%dz3, %w3 : tensor<128x10xf32>, tensor<128x10xf32>) outs(%dh2_init : tensor<128x128xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<128x128xf32>

  // ---------------- backward layer 2 ----------------------------------------
  // dz2 = dh2 * (z2 > 0).
  %dz2 = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%dh2, %z2 : tensor<128x128xf32>, tensor<128x128xf32>) outs(%e_128x128 : tensor<128x128xf32>) {
  ^bb0(%g: f32, %z: f32, %o: f32):
    %c0 = arith.constant 0.0 : f32
    %pos = arith.cmpf ogt, %z, %c0 : f32
    %r = arith.select %pos, %g, %c0 : f32
    linalg.yield %r : f32
  } -> tensor<128x128xf32>
  // gw2 = h1^T * dz2.
  %e_256x128 = tensor.empty() : tensor<256x128xf32>
  %gw2_init = linalg.fill ins(%zero : f32) outs(%e_256x128 : tensor<256x128xf32>) -> tensor<256x128xf32>
  %gw2_raw = linalg.generic {indexing_maps = [#tn_a, #tn_b, #c_ij], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%h1, %dz2 : tensor<128x256xf32>, tensor<128x128xf32>) outs(%gw2_init : tensor<256x128xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<256x128xf32>
  // gb2 = column sum of dz2.
  %gb2_init = linalg.fill ins(%zero : f32) outs(%e_128 : tensor<128xf32>) -> tensor<128xf32>
  %gb2_raw = linalg.generic {indexing_maps = [#id2, #cols], iterator_types = ["reduction", "parallel"]}
      ins(%dz2 : tensor<128x128xf32>) outs(%gb2_init : tensor<128xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>
  // dh1 = dz2 * W2^T.
  %dh1_init = linalg.fill ins(%zero : f32) outs(%e_128x256 : tensor<128x256xf32>) -> tensor<128x256xf32>
  %dh1 = linalg.generic {indexing_maps = [#nt_a, #nt_b, #c_ij], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%dz2, %w2 : tensor<128x128xf32>, tensor<256x128xf32>) outs(%dh1_init : tensor<128x256xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<128x256xf32>

  // ---------------- backward layer 1 ----------------------------------------
  // dz1 = dh1 * (z1 > 0).
  %dz1 = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%dh1, %z1 : tensor<128x256xf32>, tensor<128x256xf32>) outs(%e_128x256 : tensor<128x256xf32>) {
  ^bb0(%g: f32, %z: f32, %o: f32):
    %c0 = arith.constant 0.0 : f32
    %pos = arith.cmpf ogt, %z, %c0 : f32
    %r = arith.select %pos, %g, %c0 : f32
    linalg.yield %r : f32
  } -> tensor<128x256xf32>
  // gw1 = x^T * dz1.
  %e_784x256 = tensor.empty() : tensor<784x256xf32>
  %gw1_init = linalg.fill ins(%zero : f32) outs(%e_784x256 : tensor<784x256xf32>) -> tensor<784x256xf32>
  %gw1_raw = linalg.generic {indexing_maps = [#tn_a, #tn_b, #c_ij], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %dz1 : tensor<128x784xf32>, tensor<128x256xf32>) outs(%gw1_init : tensor<784x256xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<784x256xf32>
  // gb1 = column sum of dz1.
  %e_256 = tensor.empty() : tensor<256xf32>
  %gb1_init = linalg.fill ins(%zero : f32) outs(%e_256 : tensor<256xf32>) -> tensor<256xf32>
  %gb1_raw = linalg.generic {indexing_maps = [#id2, #cols], iterator_types = ["reduction", "parallel"]}
      ins(%dz1 : tensor<128x256xf32>) outs(%gb1_init : tensor<256xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<256xf32>

  // ---------------- parameter gradients -------------------------------------
  %gw1 = amp.grad %gw1_raw, %w1 : tensor<784x256xf32>
  %gb1 = amp.grad %gb1_raw, %b1 : tensor<256xf32>
  %gw2 = amp.grad %gw2_raw, %w2 : tensor<256x128xf32>
  %gb2 = amp.grad %gb2_raw, %b2 : tensor<128xf32>
  %gw3 = amp.grad %gw3_raw, %w3 : tensor<128x10xf32>
  %gb3 = amp.grad %gb3_raw, %b3 : tensor<10xf32>

  // ---------------- Adam: t' = t + 1, bias corrections 1 - beta^t' ----------
  %one_i = arith.constant dense<1> : tensor<i32>
  %t_new = arith.addi %t, %one_i : tensor<i32>
  %t_i = tensor.extract %t_new[] : tensor<i32>
  %t_f = arith.sitofp %t_i : i32 to f32
  %c_one = arith.constant 1.0 : f32
  %c_beta1 = arith.constant 0.9 : f32
  %c_beta2 = arith.constant 0.999 : f32
  %beta1_t = math.powf %c_beta1, %t_f : f32
  %beta2_t = math.powf %c_beta2, %t_f : f32
  %bc1 = arith.subf %c_one, %beta1_t : f32
  %bc2 = arith.subf %c_one, %beta2_t : f32
  // w1: m' = b1 m + (1 - b1) g; v' = b2 v + (1 - b2) g^2;
  //     w' = w - lr (m' / bc1) / (sqrt(v' / bc2) + eps).
  %m_w1_new = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%m_w1, %gw1 : tensor<784x256xf32>, tensor<784x256xf32>) outs(%e_784x256 : tensor<784x256xf32>) {
  ^bb0(%mm: f32, %g: f32, %o: f32):
    %c_b1 = arith.constant 0.9 : f32
    %c_1mb1 = arith.constant 0.1 : f32
    %a = arith.mulf %c_b1, %mm : f32
    %b = arith.mulf %c_1mb1, %g : f32
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<784x256xf32>
  %v_w1_new = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%v_w1, %gw1 : tensor<784x256xf32>, tensor<784x256xf32>) outs(%e_784x256 : tensor<784x256xf32>) {
  ^bb0(%v: f32, %g: f32, %o: f32):
    %c_b2 = arith.constant 0.999 : f32
    %c_1mb2 = arith.constant 0.001 : f32
    %a = arith.mulf %c_b2, %v : f32
    %g2 = arith.mulf %g, %g : f32
    %b = arith.mulf %c_1mb2, %g2 : f32
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<784x256xf32>
  %w1_new = linalg.generic {indexing_maps = [#id2, #id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%w1, %m_w1_new, %v_w1_new : tensor<784x256xf32>, tensor<784x256xf32>, tensor<784x256xf32>) outs(%e_784x256 : tensor<784x256xf32>) {
  ^bb0(%w: f32, %mm: f32, %v: f32, %o: f32):
    %c_lr = arith.constant 0.001 : f32
    %c_eps = arith.constant 1.0e-08 : f32
    %mh = arith.divf %mm, %bc1 : f32
    %vh = arith.divf %v, %bc2 : f32
    %sq = math.sqrt %vh : f32
    %den = arith.addf %sq, %c_eps : f32
    %u = arith.divf %mh, %den : f32
    %lu = arith.mulf %c_lr, %u : f32
    %r = arith.subf %w, %lu : f32
    linalg.yield %r : f32
  } -> tensor<784x256xf32>

  // b1: m' = b1 m + (1 - b1) g; v' = b2 v + (1 - b2) g^2;
  //     w' = w - lr (m' / bc1) / (sqrt(v' / bc2) + eps).
  %m_b1_new = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%m_b1, %gb1 : tensor<256xf32>, tensor<256xf32>) outs(%e_256 : tensor<256xf32>) {
  ^bb0(%mm: f32, %g: f32, %o: f32):
    %c_b1 = arith.constant 0.9 : f32
    %c_1mb1 = arith.constant 0.1 : f32
    %a = arith.mulf %c_b1, %mm : f32
    %b = arith.mulf %c_1mb1, %g : f32
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<256xf32>
  %v_b1_new = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%v_b1, %gb1 : tensor<256xf32>, tensor<256xf32>) outs(%e_256 : tensor<256xf32>) {
  ^bb0(%v: f32, %g: f32, %o: f32):
    %c_b2 = arith.constant 0.999 : f32
    %c_1mb2 = arith.constant 0.001 : f32
    %a = arith.mulf %c_b2, %v : f32
    %g2 = arith.mulf %g, %g : f32
    %b = arith.mulf %c_1mb2, %g2 : f32
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<256xf32>
  %b1_new = linalg.generic {indexing_maps = [#id1, #id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%b1, %m_b1_new, %v_b1_new : tensor<256xf32>, tensor<256xf32>, tensor<256xf32>) outs(%e_256 : tensor<256xf32>) {
  ^bb0(%w: f32, %mm: f32, %v: f32, %o: f32):
    %c_lr = arith.constant 0.001 : f32
    %c_eps = arith.constant 1.0e-08 : f32
    %mh = arith.divf %mm, %bc1 : f32
    %vh = arith.divf %v, %bc2 : f32
    %sq = math.sqrt %vh : f32
    %den = arith.addf %sq, %c_eps : f32
    %u = arith.divf %mh, %den : f32
    %lu = arith.mulf %c_lr, %u : f32
    %r = arith.subf %w, %lu : f32
    linalg.yield %r : f32
  } -> tensor<256xf32>

  // w2: m' = b1 m + (1 - b1) g; v' = b2 v + (1 - b2) g^2;
  //     w' = w - lr (m' / bc1) / (sqrt(v' / bc2) + eps).
  %m_w2_new = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%m_w2, %gw2 : tensor<256x128xf32>, tensor<256x128xf32>) outs(%e_256x128 : tensor<256x128xf32>) {
  ^bb0(%mm: f32, %g: f32, %o: f32):
    %c_b1 = arith.constant 0.9 : f32
    %c_1mb1 = arith.constant 0.1 : f32
    %a = arith.mulf %c_b1, %mm : f32
    %b = arith.mulf %c_1mb1, %g : f32
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<256x128xf32>
  %v_w2_new = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%v_w2, %gw2 : tensor<256x128xf32>, tensor<256x128xf32>) outs(%e_256x128 : tensor<256x128xf32>) {
  ^bb0(%v: f32, %g: f32, %o: f32):
    %c_b2 = arith.constant 0.999 : f32
    %c_1mb2 = arith.constant 0.001 : f32
    %a = arith.mulf %c_b2, %v : f32
    %g2 = arith.mulf %g, %g : f32
    %b = arith.mulf %c_1mb2, %g2 : f32
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<256x128xf32>
  %w2_new = linalg.generic {indexing_maps = [#id2, #id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%w2, %m_w2_new, %v_w2_new : tensor<256x128xf32>, tensor<256x128xf32>, tensor<256x128xf32>) outs(%e_256x128 : tensor<256x128xf32>) {
  ^bb0(%w: f32, %mm: f32, %v: f32, %o: f32):
    %c_lr = arith.constant 0.001 : f32
    %c_eps = arith.constant 1.0e-08 : f32
    %mh = arith.divf %mm, %bc1 : f32
    %vh = arith.divf %v, %bc2 : f32
    %sq = math.sqrt %vh : f32
    %den = arith.addf %sq, %c_eps : f32
    %u = arith.divf %mh, %den : f32
    %lu = arith.mulf %c_lr, %u : f32
    %r = arith.subf %w, %lu : f32
    linalg.yield %r : f32
  } -> tensor<256x128xf32>

  // b2: m' = b1 m + (1 - b1) g; v' = b2 v + (1 - b2) g^2;
  //     w' = w - lr (m' / bc1) / (sqrt(v' / bc2) + eps).
  %m_b2_new = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%m_b2, %gb2 : tensor<128xf32>, tensor<128xf32>) outs(%e_128 : tensor<128xf32>) {
  ^bb0(%mm: f32, %g: f32, %o: f32):
    %c_b1 = arith.constant 0.9 : f32
    %c_1mb1 = arith.constant 0.1 : f32
    %a = arith.mulf %c_b1, %mm : f32
    %b = arith.mulf %c_1mb1, %g : f32
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>
  %v_b2_new = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%v_b2, %gb2 : tensor<128xf32>, tensor<128xf32>) outs(%e_128 : tensor<128xf32>) {
  ^bb0(%v: f32, %g: f32, %o: f32):
    %c_b2 = arith.constant 0.999 : f32
    %c_1mb2 = arith.constant 0.001 : f32
    %a = arith.mulf %c_b2, %v : f32
    %g2 = arith.mulf %g, %g : f32
    %b = arith.mulf %c_1mb2, %g2 : f32
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>
  %b2_new = linalg.generic {indexing_maps = [#id1, #id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%b2, %m_b2_new, %v_b2_new : tensor<128xf32>, tensor<128xf32>, tensor<128xf32>) outs(%e_128 : tensor<128xf32>) {
  ^bb0(%w: f32, %mm: f32, %v: f32, %o: f32):
    %c_lr = arith.constant 0.001 : f32
    %c_eps = arith.constant 1.0e-08 : f32
    %mh = arith.divf %mm, %bc1 : f32
    %vh = arith.divf %v, %bc2 : f32
    %sq = math.sqrt %vh : f32
    %den = arith.addf %sq, %c_eps : f32
    %u = arith.divf %mh, %den : f32
    %lu = arith.mulf %c_lr, %u : f32
    %r = arith.subf %w, %lu : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>

  // w3: m' = b1 m + (1 - b1) g; v' = b2 v + (1 - b2) g^2;
  //     w' = w - lr (m' / bc1) / (sqrt(v' / bc2) + eps).
  %m_w3_new = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%m_w3, %gw3 : tensor<128x10xf32>, tensor<128x10xf32>) outs(%e_128x10 : tensor<128x10xf32>) {
  ^bb0(%mm: f32, %g: f32, %o: f32):
    %c_b1 = arith.constant 0.9 : f32
    %c_1mb1 = arith.constant 0.1 : f32
    %a = arith.mulf %c_b1, %mm : f32
    %b = arith.mulf %c_1mb1, %g : f32
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<128x10xf32>
  %v_w3_new = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%v_w3, %gw3 : tensor<128x10xf32>, tensor<128x10xf32>) outs(%e_128x10 : tensor<128x10xf32>) {
  ^bb0(%v: f32, %g: f32, %o: f32):
    %c_b2 = arith.constant 0.999 : f32
    %c_1mb2 = arith.constant 0.001 : f32
    %a = arith.mulf %c_b2, %v : f32
    %g2 = arith.mulf %g, %g : f32
    %b = arith.mulf %c_1mb2, %g2 : f32
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<128x10xf32>
  %w3_new = linalg.generic {indexing_maps = [#id2, #id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%w3, %m_w3_new, %v_w3_new : tensor<128x10xf32>, tensor<128x10xf32>, tensor<128x10xf32>) outs(%e_128x10 : tensor<128x10xf32>) {
  ^bb0(%w: f32, %mm: f32, %v: f32, %o: f32):
    %c_lr = arith.constant 0.001 : f32
    %c_eps = arith.constant 1.0e-08 : f32
    %mh = arith.divf %mm, %bc1 : f32
    %vh = arith.divf %v, %bc2 : f32
    %sq = math.sqrt %vh : f32
    %den = arith.addf %sq, %c_eps : f32
    %u = arith.divf %mh, %den : f32
    %lu = arith.mulf %c_lr, %u : f32
    %r = arith.subf %w, %lu : f32
    linalg.yield %r : f32
  } -> tensor<128x10xf32>

  // b3: m' = b1 m + (1 - b1) g; v' = b2 v + (1 - b2) g^2;
  //     w' = w - lr (m' / bc1) / (sqrt(v' / bc2) + eps).
  %m_b3_new = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%m_b3, %gb3 : tensor<10xf32>, tensor<10xf32>) outs(%e_10 : tensor<10xf32>) {
  ^bb0(%mm: f32, %g: f32, %o: f32):
    %c_b1 = arith.constant 0.9 : f32
    %c_1mb1 = arith.constant 0.1 : f32
    %a = arith.mulf %c_b1, %mm : f32
    %b = arith.mulf %c_1mb1, %g : f32
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<10xf32>
  %v_b3_new = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%v_b3, %gb3 : tensor<10xf32>, tensor<10xf32>) outs(%e_10 : tensor<10xf32>) {
  ^bb0(%v: f32, %g: f32, %o: f32):
    %c_b2 = arith.constant 0.999 : f32
    %c_1mb2 = arith.constant 0.001 : f32
    %a = arith.mulf %c_b2, %v : f32
    %g2 = arith.mulf %g, %g : f32
    %b = arith.mulf %c_1mb2, %g2 : f32
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<10xf32>
  %b3_new = linalg.generic {indexing_maps = [#id1, #id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%b3, %m_b3_new, %v_b3_new : tensor<10xf32>, tensor<10xf32>, tensor<10xf32>) outs(%e_10 : tensor<10xf32>) {
  ^bb0(%w: f32, %mm: f32, %v: f32, %o: f32):
    %c_lr = arith.constant 0.001 : f32
    %c_eps = arith.constant 1.0e-08 : f32
    %mh = arith.divf %mm, %bc1 : f32
    %vh = arith.divf %v, %bc2 : f32
    %sq = math.sqrt %vh : f32
    %den = arith.addf %sq, %c_eps : f32
    %u = arith.divf %mh, %den : f32
    %lu = arith.mulf %c_lr, %u : f32
    %r = arith.subf %w, %lu : f32
    linalg.yield %r : f32
  } -> tensor<10xf32>

  return %loss, %w1_new, %b1_new, %w2_new, %b2_new, %w3_new, %b3_new, %m_w1_new, %m_b1_new, %m_w2_new, %m_b2_new, %m_w3_new, %m_b3_new, %v_w1_new, %v_b1_new, %v_w2_new, %v_b2_new, %v_w3_new, %v_b3_new, %t_new
    : tensor<f32>, tensor<784x256xf32>, tensor<256xf32>, tensor<256x128xf32>, tensor<128xf32>, tensor<128x10xf32>, tensor<10xf32>, tensor<784x256xf32>, tensor<256xf32>, tensor<256x128xf32>, tensor<128xf32>, tensor<128x10xf32>, tensor<10xf32>, tensor<784x256xf32>, tensor<256xf32>, tensor<256x128xf32>, tensor<128xf32>, tensor<128x10xf32>, tensor<10xf32>, tensor<i32>
}

func.func @eval_step(
    %w1: tensor<784x256xf32> {amp.role = "param"},
    %b1: tensor<256xf32> {amp.role = "param"},
    %w2: tensor<256x128xf32> {amp.role = "param"},
    %b2: tensor<128xf32> {amp.role = "param"},
    %w3: tensor<128x10xf32> {amp.role = "param"},
    %b3: tensor<10xf32> {amp.role = "param"},
    %x: tensor<128x784xf32> {amp.role = "input"})
  -> (tensor<128x10xf32> {amp.role = "logits"})
  attributes {amp.eval_step} {
  %zero = arith.constant 0.0 : f32

  // ---------------- layer 1: h1 = relu(x * W1 + b1) -------------------------
  %e_128x256 = tensor.empty() : tensor<128x256xf32>
  %acc1 = linalg.fill ins(%zero : f32) outs(%e_128x256 : tensor<128x256xf32>) -> tensor<128x256xf32>
  %xw1 = linalg.matmul ins(%x, %w1 : tensor<128x784xf32>, tensor<784x256xf32>)
                       outs(%acc1 : tensor<128x256xf32>) -> tensor<128x256xf32>
  %h1 = linalg.generic {indexing_maps = [#id2, #cols, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%xw1, %b1 : tensor<128x256xf32>, tensor<256xf32>) outs(%e_128x256 : tensor<128x256xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %c0 = arith.constant 0.0 : f32
    %z = arith.addf %a, %b : f32
    %r = arith.maximumf %z, %c0 : f32
    linalg.yield %r : f32
  } -> tensor<128x256xf32>

  // ---------------- layer 2: h2 = relu(h1 * W2 + b2) ------------------------
  %e_128x128 = tensor.empty() : tensor<128x128xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e_128x128 : tensor<128x128xf32>) -> tensor<128x128xf32>
  %h1w2 = linalg.matmul ins(%h1, %w2 : tensor<128x256xf32>, tensor<256x128xf32>)
                        outs(%acc2 : tensor<128x128xf32>) -> tensor<128x128xf32>
  %h2 = linalg.generic {indexing_maps = [#id2, #cols, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%h1w2, %b2 : tensor<128x128xf32>, tensor<128xf32>) outs(%e_128x128 : tensor<128x128xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %c0 = arith.constant 0.0 : f32
    %z = arith.addf %a, %b : f32
    %r = arith.maximumf %z, %c0 : f32
    linalg.yield %r : f32
  } -> tensor<128x128xf32>

  // ---------------- layer 3: logits = h2 * W3 + b3 -------------------------
  %e_128x10 = tensor.empty() : tensor<128x10xf32>
  %acc3 = linalg.fill ins(%zero : f32) outs(%e_128x10 : tensor<128x10xf32>) -> tensor<128x10xf32>
  %h2w3 = linalg.matmul ins(%h2, %w3 : tensor<128x128xf32>, tensor<128x10xf32>)
                        outs(%acc3 : tensor<128x10xf32>) -> tensor<128x10xf32>
  %logits = linalg.generic {indexing_maps = [#id2, #cols, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%h2w3, %b3 : tensor<128x10xf32>, tensor<10xf32>) outs(%e_128x10 : tensor<128x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<128x10xf32>

  return %logits : tensor<128x10xf32>
}

}
