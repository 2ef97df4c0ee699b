// TypeScript declarations for dpsample's JS API (site/dpsample.js and the raw
// globalThis.dpsample installed by dpsample.wasm). Every call returns a
// Promise; every error is a rejection with an Error whose message names the
// field and the rule ("epsilon must be a finite number > 0, got NaN").
// A cancelled run rejects with an Error whose name is "AbortError".

export interface Progress { done: number; total: number; fraction: number }
export interface RunOptions { onProgress?: (p: Progress) => void; signal?: AbortSignal }

export type Loss = "l1" | "l2dist" | "lad" | "quantile" | "hinge" | "logistic" | "huber" | "smooth-hinge" | "smooth-quantile" | "linear" | "linext";

export interface Request {
  loss: Loss | string;
  /** n rows × d features (or points for location losses); rows may be Float64Arrays, or the whole matrix one
   *  row-major Float64Array with its shape (one transfer instead of n). */
  x: (number[] | Float64Array)[] | FlatMatrix;
  /** labels (±1 for classifiers) or targets, where the loss needs them. */
  y?: number[] | Float64Array;
  epsilon: number;
  delta: number;
  /** public C: bound on ‖θ*‖ (Assumption 1.2). Absent: the public rule mechanism.DefaultRadius (loss, clip,
   *  declared domain only; docs/DEFAULTS.md), and plan.why says so. */
  radius?: number;
  /** public k (default d); never estimated from the data. */
  rank?: number;
  /** public bound on ‖x‖₂ for supervised losses; longer rows are scaled down to it (default 1). */
  clip?: number;
  tau?: number;
  huber?: number;
  ball?: number;
  /** independent private samples; each costs privacy and the report composes them (√m·s). */
  samples?: number;
  /** "smooth": the exact first-order sampler (an error for a non-smooth loss). */
  sampler?: "auto" | "proximal" | "smooth" | "exact";
  /** public target domain [lo, hi] for lad, quantile, huber, smooth-quantile (default [-1, 1]); targets are clamped to it. */
  targetRange?: [number, number];
  /** public box [lo, hi] for every coordinate of the points of l1 and l2dist (default [-1, 1]); points are clamped to it. */
  pointBox?: [number, number];
  etaRule?: "optimal" | "paper";
  mode?: "auto" | "full" | "stochastic";
  /** the estimator: Algorithm 1 ("exponential", default) or full-batch DP-GD with a public schedule at the same
   *  accountant ("dp-gd" unprojected, "dp-gd-projected" onto ‖θ‖ ≤ radius), for the supervised losses. */
  method?: "exponential" | "dp-gd" | "dp-gd-projected";
  /** with method "dp-gd" on a smooth loss (logistic, huber, smooth-hinge, smooth-quantile) and one sample: the level
   *  of the intervals released beside θ (e.g. 0.95; core/interval). The request's (ε, δ) then covers θ and the
   *  intervals together: plan.interval gives the split and whether the public gate passes. */
  interval?: number;
  /** reproducible, NOT private: the result then has private: false. */
  seed?: number;
  /** default true: the proximal samplers' work (anchor passes, trials, factory draws, random draws) is a function of
   *  public inputs only — K + 1 anchor passes per step and a public total trial budget padded with real trials, its
   *  overrun charged to tv (plan.tvOver); false: the faster adaptive sampler, whose work depends on the data
   *  (docs/PRIVACY.md §5). The exact samplers' work is not fixed either way. */
  fixedWork?: boolean;
  /** cores offered for the first-order sampler's data passes (default 1; at most 64). The plan uses
   *  plan.workers shards (from n and this number only); the sample is the same bits for every number. */
  workers?: number;
}

/** One charge to a ledger: the release is `gdp`-GDP plus a total-variation slack `tv` (m samples: √m·s and m·tv). */
export interface LedgerRelease {
  /** unique (random); histories merge by id on restore. */
  id: string;
  label?: string;
  gdp: number;
  tv: number;
  /** the release's own (ε, δ), when known. */
  epsilon?: number;
  delta?: number;
}

/** A table's privacy budget and what its releases have spent (docs/PRIVACY.md §8). */
export interface LedgerState {
  key: string;
  /** the declared total; gdp = S = s*(ε, δ/2) and tv = (δ/2)/(1+e^ε) are its split. */
  budget: { epsilon: number; delta: number; gdp: number; tv: number };
  /** gdp = √Σ s_i², tv = Σ tv_i; the releases so far are (epsilon, delta)-DP had their parameters been fixed in
   *  advance (delta = the budget's δ, 0 before the first release). Whatever was chosen along the way, everything
   *  released under the ledger is within the budget. */
  spent: { epsilon: number; delta: number; gdp: number; tv: number; releases: number; overBudget: boolean };
  /** gdp: the largest s of one more release; epsilon: the largest ε a further request at the budget's δ may ask. */
  remaining: { gdp: number; tv: number; epsilon: number };
  history: LedgerRelease[];
}

/** plan(req, {ledger}).ledger: whether the release fits, before anything runs (nothing is charged). */
export interface LedgerCheck {
  fits: boolean;
  /** why not: the message sample(req, {ledger}) would reject with. */
  reason?: string;
  cost: LedgerRelease;
  before: LedgerState;
  /** the ledger after the charge, when it fits. */
  after?: LedgerState;
}

/** mechanism.membership's result (core/mechanism/membership.go). Computed on public example tables: not private. */
export interface Membership {
  epsilon: number; delta: number; n: number; draws: number; alpha: number; noise: number; seed: number;
  /** s the mechanism promises; s of the mechanism run (s/noise) */
  gdp: number; runGDP: number; method: string;
  points: { threshold: number; level: number; falseAlarm: number; falseAlarmLo: number; falseAlarmHi: number;
            catch: number; catchLo: number; catchHi: number; exactCatch: number; bound: number; above: boolean }[];
  /** some point's catch interval lies above the promise */
  above: boolean;
  /** (α, 1 − T_s(α)) for α = 0, 0.01, …, 1 */
  curve: [number, number][];
  private: false;
}

export interface SampleOptions extends RunOptions {
  /** the key of an open ledger: the release is charged before sampling, or refused (a rejection naming ledger). */
  ledger?: string;
  /** called with the ledger right after the charge, before sampling starts. */
  onLedger?: (state: LedgerState) => void;
}

export interface Plan {
  n: number; d: number; G: number; eta: number; mu: number; gdp: number;
  deltaCurve: number; deltaSampler: number; tv: number; steps: number; lambda: number;
  /** Lemma E.3's data-independent radius: the sample lies in B(0, radiusBall) with probability ≥ 1 − tv
   *  (reported, not imposed as a truncation; see core/sampler's package doc). */
  radiusBall: number;
  expectedLossEvals: number; sampler: string; neighbours: "replace-one";
  method: string; loss: string; rank: number; radius: number; clip: number; epsilon: number; delta: number;
  samples: number; gdpTotal: number; etaRule: string; grid: number;
  targetRange?: [number, number]; pointBox?: [number, number];
  /** which sampler and why; the first-order sampler's curvature β·clip², anchor passes K, trial cap M,
   *  acceptance lower bound and the split of tv into mixing and oracle failure. */
  why: string; curvature: number; anchorMax: number; trialBudget: number; acceptMin: number; tvMix: number; tvRGO: number;
  /** fixed work (Request.fixedWork): on or off for this plan, the total trial budget B per sample, the zeroth-order
   *  stochastic oracle's total of factory draws per sample, and the share of tv for an overrun of either. */
  fixedWork: boolean; trialTotal: number; factoryTotal: number; tvOver: number;
  /** data-independent estimate of the work of mechanism.sample (all samples), to warn before a run: about
   *  `passes` passes over the rows (`passesMax` bounds the expectation), each `rowsTimesD` = n·d multiply-adds, the
   *  non-private comparison's `referencePasses` (made exactly when `referenceFixed`, at most otherwise) and `draws`
   *  random numbers drawn by the sampling worker. Seconds ≈ (passes + referencePasses) · rowsTimesD · (a per-row·feature
   *  cost measured on the device) + draws · (a draw's cost on the device). */
  work: { passes: number; passesMax: number; rowsTimesD: number; referencePasses: number; referenceFixed: boolean; draws: number;
          /** the intervals' releases (included in passes): d + 2 above the gate, else 0. */
          intervalPasses: number };
  /** shards of the first-order sampler's passes (1 for the other samplers). */
  workers: number;
  /** with {ledger}: whether the release fits the table's budget (the plan's tv is then the ledger's share). */
  ledger?: LedgerCheck;
  /** which estimator ran: "exponential" (Algorithm 1), "dp-gd" or "dp-gd-projected". For DP-GD: gdp is each
   *  release's s/√m, gdpTotal = s, tv = 0, eta = mu = 0, steps = T, and schedule holds the public schedule. */
  estimator: "exponential" | "dp-gd" | "dp-gd-projected";
  schedule?: DPGDSchedule;
  /** with req.interval: the public gate and the split of the budget (data-independent). */
  interval?: IntervalPlan;
}

/** One release of the intervals: its GDP share, replace-one L2 sensitivity and noise sd per coordinate (a matrix's
 *  diagonal; off it the sd is noise/√2). */
export interface IntervalPart { gdp: number; sensitivity: number; noise: number }

/** plan.interval (core/interval): gate false → no interval is released, reason says why in words, and the model
 *  gets the whole budget (model = gdp); gate true → the model runs at `model` and the gradient, curvature (Hessian)
 *  and score releases at their shares, √(model² + Σ part.gdp²) = gdp = plan.gdpTotal. ns = n·s, the gate's
 *  quantity, and minNS its bound. passes: the releases' work in passes of n·d (d + 2; in plan.work.passes too). */
export interface IntervalPlan {
  level: number; gate: boolean; reason?: string; ns: number; minNS: number;
  gdp: number; model: number; gradient: IntervalPart; hessian: IntervalPart; score: IntervalPart;
  passes: number; why: string;
}

/** result.intervals: above the gate, per coefficient (θ's units), the corrected estimate and the interval [lo, hi]
 *  (cut to [−radius, radius]) and the standard error se; below it the level and the reason only. Private: computed
 *  from the releases that result.privacy covers. */
export interface Intervals {
  level: number; estimate?: number[]; lo?: number[]; hi?: number[]; se?: number[]; reason?: string;
}

/** A DP-GD run's public schedule (core/dpgd): rule in words, T, step h, per-step noise σ, the run's GDP s. */
export interface DPGDSchedule {
  rule: string; steps: number; step: number; sigma: number; gdp: number; average: "suffix-half" | "all";
  projected: boolean; radius: number;
}

export interface Result {
  theta: number[];
  samples: number[][];
  private: boolean;
  plan: Plan;
  /** this release; with {ledger}, ledger is the table's ledger after this release was charged. */
  privacy: { epsilon: number; delta: number; gdp: number; composedOver: number; neighbours: string; ledger?: LedgerState };
  /** public: follows from the plan alone. */
  stats: { steps: number; samples: number };
  /** data-dependent work counters, timings and clamp counts: NOT private, never publish beside θ. */
  diagnostics: { private: false; trials: number; lossEvals: number; anchorPasses: number; draws: number; seconds: number;
                 /** the events charged to tv, so the bound can be checked: oracle calls that used all trialBudget trials,
                  *  anchors that missed their residual, steps that found the total trial budget spent (fixedWork), and
                  *  the trials run only to fill that budget (counted in trials). */
                 failures: number; anchorMisses: number; overruns: number; padded: number;
                 clampedTargets: number; clampedPoints: number; clippedRows: number;
                 /** shards the passes ran on, and what went wrong with the workers if anything (result unchanged). */
                 workers: number; note?: string };
  /** computed on the user's own device for display only; NOT private. accuracy and nonPrivateAccuracy (training accuracy) for classification losses only. */
  /** the comparison θ̂ minimises the loss over all θ (linear, linext: within ‖θ‖ ≤ ball); gap certifies it for every θ'
   *  whose predictions move by at most reach (root mean square; global: every θ'), converged: gap ≤ tolerance. */
  fit: { loss: number; nonPrivateLoss: number; excess: number; gap: number; reach?: number; global?: boolean; tolerance: number;
         converged: boolean; ball?: number; theta: number[]; iterations: number; passes: number; norm: number;
         accuracy?: number; nonPrivateAccuracy?: number; [k: string]: unknown };
  /** with req.interval: the intervals, or below the gate the reason there are none. */
  intervals?: Intervals;
}

export interface Code {
  id: number; n: number; xi: number; mode: "tardos" | "symmetric";
  /** real columns */ d0: number;
  /** published columns, 5·d0 */ length: number;
  Z: number; threshold: number; k: number; t: number; tPrime: number; bytes: number; private: boolean;
}

export interface Trace { scores: number[]; threshold: number; accused: number[]; returned: number | null }

export interface LowerboundOptions {
  n: number; xi: number; mechanism: "median" | "exponential" | "box-exponential" | "gaussian";
  epsilon?: number; delta?: number; s?: number; remove?: number; ghosts?: number; trials?: number;
  mode?: "tardos" | "symmetric"; seed?: number; copies?: number; pad?: number;
}

export interface Experiment {
  excessOverD: number[];
  traced: boolean[];
  rates: { traced: number; removedAccused: number | null; [k: string]: unknown };
  /** what an (ε, δ)-DP mechanism could show against this attack; a lower bound for the attack, never an upper
   *  bound on the mechanism's ε. ceiling: the most N trials can show (≈ ln(N/3.7)); limit: where it settles. */
  impliedEpsilon: { estimate: number | null; lower: number; upper: number | null; delta: number; trials: number;
                    ceiling: number | null; limit?: number } | null;
  /** the mechanism's promise for one person's `copies` rows (group privacy; GDP rule for Algorithm 1 and the Gaussian). */
  claim: { copies: number; rule: "none" | "pure" | "gdp"; epsilon: number | null; delta: number; deltaGeneric: number;
           gdp?: number; rowDelta?: number };
  /** soundness measured (Clopper–Pearson, level) and computed (exact rates, the all-ones worst case Φ̄(√ln(n/ξ))). */
  soundness: { xi: number; level: number; removedHits: number; trials: number; removedCI?: [number, number];
               removedExact?: number; ghostExact: number; worstCaseGaussian: number; worstCaseExact: number;
               worstCaseExceedsXi: boolean; [k: string]: unknown };
  private: boolean;
  trials: number;
  [k: string]: unknown;
}

export interface BoundsRow {
  source: string; constrained: string; geometry: string; loss: string; kind: "lower" | "upper";
  privacy: "pure" | "approximate"; formula: string; normalized: number; value: number; note?: string;
  /** The bound's rank condition: stated at rank k, about full rank (k = d) only, or any rank (constrained GLM bounds). */
  rank: "k" | "full" | "any";
  /** Whether the bound speaks about these inputs (rank condition, stated ranges of ε, δ, d); why: to which problems, or why not. */
  applies: boolean; why: string;
}

/** A matrix as one row-major Float64Array of shape[0]·shape[1] values (what parseCSV returns with {flat: true}). */
export interface FlatMatrix { data: Float64Array; shape: [number, number] }

export interface Table {
  /** rows, or with parseCSV's {flat: true} one FlatMatrix. */
  x: Float64Array[] | FlatMatrix; y?: Float64Array; columns: string[]; allColumns: string[]; dropped: number;
  header: boolean; target?: string; mapping?: Record<string, number>;
  /** "comma", "semicolon" or "tab", detected from the first line. */
  delimiter?: string;
  /** "positive-vs-rest" or "numeric" (declared), or "inferred …" (from the labels present: not private). */
  coding?: string;
  /** With {missing: "fill"}: the feature cells read as missing (a number's is NaN in x, a text cell's codes as zeros) and
   *  the rows whose target is missing (NaN in y). NOT private: counts of the data for its owner; never publish them. */
  missingCells?: number; missingTargets?: number;
  /** The "<name> missing" columns of {indicators} (0/1), in x's order. */
  indicators?: string[];
  /** {reference} as applied: text feature → the label whose column was left out (it codes as all zeros). */
  reference?: Record<string, string>;
}

/** data.profileCSV's answer: computed from the data, NOT private (for the owner's eyes only). */
export interface CSVProfile {
  columns: { name: string; kind: "numeric" | "text" | "mixed" | "empty"; missing: number; firstText?: string; firstTextRow?: number;
             labels: { label: string; rows: number }[] | null; manyLabels?: boolean;
             /** the non-empty missing-cell tokens (NA, None, ?, …) counted in missing, with their cells. */
             missingTokens?: { label: string; rows: number }[] }[];
  header: boolean; delimiter: string; rows: number; headerHash?: string;
  problems: { row: number; column?: string; text: string; blocking?: boolean }[] | null;
}

/** One column's private description (dpsample.describe). lo < hi are finite; lo ≤ q1 ≤ median ≤ q3 ≤ hi. */
export interface ColumnDescription {
  lo: number; hi: number; median: number; q1: number; q3: number;
  /** "linear": stage 2 placed an end on linear bins step wide (trimmed the window, or refined it down its tree);
   *  "magnitude": the whole factor-4 window kept (wide);
   *  "none": the mode did not clear the noise (a finite but wide guess). Computed from the noisy counts: private. */
  resolution: "linear" | "magnitude" | "none";
  /** the width of the bins lo and hi were read from (the level of stage 2's tree the ends were placed on): the range's precision. */
  step: number;
  /** the width of the bins the quartiles were read from: at most step when stage 2 placed them (a tree's finer levels
   *  refine them), stage 1's mode bin (a factor 4 of magnitude) with one stage — their resolution, not a bound on their
   *  error. */
  quartileStep: number;
  /** what q1, median and q3 were read from: "linear", stage 2's bins (at quartileStep); "magnitude", stage 1's mode
   *  bin — its edges and middle — with one stage or when stage 2 found no bin clear of the noise: no reading of the
   *  column's quartiles then (the page shows dashes). */
  quartiles: "linear" | "magnitude";
}

export interface Description {
  columns: ColumnDescription[];
  /** the release is gdp-GDP (Gaussian histograms in one or two stages, exact: no total-variation slack); under a ledger, its state after the charge. */
  privacy: { epsilon: number; delta: number; gdp: number; private: boolean; note?: string; ledger?: LedgerState };
  /** public: a function of n, d, ε, δ only (noise scales, thresholds, bins). */
  plan: { n: number; d: number; epsilon: number; delta: number; gdp: number; gdpMagnitude: number; gdpLinear: number;
          stages: 1 | 2; sigmaMagnitude: number; sigmaLinear: number; thresholdMagnitude: number; thresholdGrow: number;
          thresholdLinear: number; binsMagnitude: number; binsLinear: number; shareMagnitude: number;
          margin: number;
          /** stage 2's levels: 0 with one stage, 1 one histogram of binsLinear bins, 3 or 4 a tree whose level k has
           *  binsLinear·branchLinear^k bins, the finer levels with noise sigmaFine and trim level thresholdFine (issue 52). */
          levelsLinear: number; branchLinear?: number; sigmaFine?: number; thresholdFine?: number; marginFine?: number;
          labels?: boolean; thresholdLabel?: number; tv?: number };
}

/** A CSV column's private description (dpsample.describe({csv})): its numbers' range, and its categories. */
export interface CellsColumnDescription extends ColumnDescription {
  name: string;
  /** "text" when the categories hold at least half the rows. */
  kind: "numeric" | "text";
  /** the labels whose noisy count cleared plan.thresholdLabel, most frequent first (private). */
  categories: string[];
  /** rows are left outside the categories (other labels, numbers or missing cells). */
  other: boolean;
}

export interface CellsDescription {
  columns: CellsColumnDescription[];
  /** gdp-GDP plus a total-variation slack tv (a one-row label's survival), charged together. */
  privacy: { epsilon: number; delta: number; gdp: number; tv: number; private: boolean; note?: string; ledger?: LedgerState };
  plan: Description["plan"];
}

export interface DPSample {
  /** The release version (semantic versioning): the "version" of the release's package.json. */
  version: string;
  /** Each column's bounds, median and quartiles, found privately (raw rows at any scale). Under {ledger} it is
   *  charged to that table's budget first and refused, naming ledger, when it does not fit; δ must be below 1/n. */
  describe(req: { x: number[][] | Float64Array[] | FlatMatrix; epsilon: number; delta: number; seed?: number },
           opts?: { ledger?: string; onLedger?: (state: LedgerState) => void }): Promise<Description>;
  /** Every column of a CSV text in one release: numbers' ranges and text labels' categories (issue 42). */
  describe(req: { csv: string; epsilon: number; delta: number; header?: boolean | "auto";
                  /** only these columns, in this order (d = their count; n stays the file's data-row count). */
                  columns?: string[]; seed?: number },
           opts?: { ledger?: string; onLedger?: (state: LedgerState) => void }): Promise<CellsDescription>;
  privacy: {
    delta(gdp: number, epsilon: number): Promise<number>;
    calibrate(epsilon: number, delta: number): Promise<number>;
    epsilon(gdp: number, delta: number): Promise<number>;
    /** T_μ(α) = Φ(Φ⁻¹(1 − α) − μ): the smallest miss rate of a membership test with false-alarm rate α (issue 44). */
    tradeoff(gdp: number, alpha: number): Promise<number>;
    /** the largest chance of catching a person at false-alarm rate α: Φ̄(Φ̄⁻¹(α + tv) − μ) + tv. */
    catch(gdp: number, alpha: number, tv?: number): Promise<number>;
  };
  mechanism: {
    plan(req: Request, opts?: { ledger?: string }): Promise<Plan>;
    sample(req: Request, opts?: SampleOptions): Promise<Result>;
    /** the likelihood-ratio membership attack on the mechanism as shipped, on two public neighbouring tables (issue 44):
     *  points (false alarm, catch) with simultaneous intervals, against the promised curve; noise: 0.5 is a broken mechanism. */
    membership(config: { epsilon: number; delta: number; n?: number; draws?: number; alpha?: number; noise?: number; seed?: number },
               opts?: RunOptions): Promise<Membership>;
  };
  /** One privacy budget per table (a privacy filter). Without {ledger}, plan and sample charge nothing. */
  ledger: {
    /** creates the ledger, or returns the existing one unchanged; another budget for an existing key rejects naming epsilon or delta. */
    open(budget: { key: string; epsilon: number; delta: number }): Promise<LedgerState>;
    get(key: string): Promise<LedgerState>;
    /** forgets every release; the budget stays, or becomes `budget` when given (the only way to change it). */
    reset(key: string, budget?: { epsilon: number; delta: number }): Promise<LedgerState>;
    /** brings a stored state back (after a reload): merged by release id, it can add releases, never remove one. */
    restore(state: { key: string; budget: { epsilon: number; delta: number; gdp?: number; tv?: number }; history?: LedgerRelease[];
                     spent?: unknown; remaining?: unknown }): Promise<LedgerState>;
  };
  fingerprint: {
    code(opts: { n: number; xi: number; mode?: "tardos" | "symmetric"; seed?: number }): Promise<Code>;
    rows(code: Code): Promise<Uint8Array[]>;
    trace(code: Code, output: number[] | Float64Array): Promise<Trace>;
  };
  lowerbound: { run(opts: LowerboundOptions, onProgress?: ((p: Progress) => void) | RunOptions): Promise<Experiment> };
  bounds: { table(opts: { n: number; d: number; rank?: number; epsilon: number; delta: number; G?: number; C?: number }): Promise<BoundsRow[]> };
  /** header: true (the first row is a header), false (it is data) or "auto" (default: guessed; a first row mixing numbers
   *  and text unlike the second is an error naming header that asks you to say). */
  data: { parseCSV(text: string, opts?: { target?: string; drop?: "missing"; features?: string[]; positive?: string; targetType?: "numeric" | "label";
                                          header?: boolean | "auto"; flat?: boolean;
                                          /** declared text features, one-hot coded as column=label (an unlisted label: all zeros). */
                                          categories?: { [column: string]: string[] };
                                          /** "fill": keep every row (n = the file's data rows); a missing number is NaN in x, a missing
                                           *  text cell all zeros, a missing target NaN in y. Not beside drop. */
                                          missing?: "fill";
                                          /** features that get a 0/1 "<name> missing" column (with missing: "fill"). */
                                          indicators?: string[];
                                          /** tokens (None, NA, …) that are values of a column, not missing cells. */
                                          levels?: { [column: string]: string[] };
                                          /** per text feature of categories, its reference label: its column is left out. */
                                          reference?: { [column: string]: string } }, run?: RunOptions): Promise<Table>;
          /** NOT private: a file's columns (kinds, missing cells, up to 50 labels) and problems, for its owner's eyes
           *  (the form's first choices); onProgress in bytes read. */
          profileCSV(text: string, opts?: { header?: boolean | "auto" }, run?: RunOptions): Promise<CSVProfile>;
          /** NOT private: the hex SHA-256 of the table's canonical form (row order, line ends, delimiter, quoting and number
           *  spelling do not change it), the key under which the page keeps a table's budget; for its owner's storage. */
          tableKey(text: string): Promise<string> };
  /** The site's dimension-free demonstration: synthetic rank-k data embedded in each d of dims; excess risk of
   *  Algorithm 1 and of projected (baseline) and unprojected DP-GD, both on core/dpgd's public schedule (recorded per
   *  point), calibrated with the same accountant. */
  demo: {
    dimensionFree(opts?: { n?: number; rank?: number; dims?: number[]; epsilon?: number; delta?: number; radius?: number;
                           trials?: number; dataSeed?: number; seed?: number }, run?: RunOptions): Promise<{
      points: { d: number; exponential: number[]; baseline: number[]; expMean: number; expSE: number; baseMean: number; baseSE: number;
                unprojected: number[]; unprojMean: number; unprojSE: number;
                projectedSchedule: DPGDSchedule; unprojectedSchedule: DPGDSchedule }[];
      bound: number; nonPrivateLoss: number; eta: number; mu: number; private: boolean;
    }>;
  };
}

export interface Loaded extends DPSample {
  /** stops the worker; pending calls reject. */
  terminate(): void;
  /** how many times the worker was respawned (runtime exit or hard cancel). */
  readonly restarts: number;
}

/** Options of load(). */
export interface LoadOptions {
  /** URL of the module (default: dpsample-api.wasm next to dpsample.js, the API alone; dpsample.wasm, the page's module with the elements' UI, when this page has already fetched it). */
  wasmURL?: string | URL;
  /** URL of worker.js (default: next to dpsample.js); must be same-origin with the page. */
  workerURL?: string | URL;
  /** after an AbortSignal fires, how long a run may take to stop before the worker is replaced (default 1000 ms). */
  hardCancelMs?: number;
  /** how long the first worker may take to report ready before load() rejects (default 20000 ms). */
  startTimeoutMs?: number;
}

/**
 * Starts dpsample in a Web Worker (the .wasm is compiled once) and resolves to its API.
 * Rejects, naming the URL, if the module cannot be fetched or compiled or the
 * worker cannot start (script blocked or missing, or no answer within startTimeoutMs).
 */
export function load(options?: LoadOptions): Promise<Loaded>;

/** Resolves to the compiled dpsample WebAssembly.Module (fetched and compiled once per page). */
export function wasmModule(wasmURL?: string | URL): Promise<WebAssembly.Module>;

declare global {
  // The raw module, present in any realm where dpsample.wasm runs.
  var dpsample: DPSample | undefined;
}
