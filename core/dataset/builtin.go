package dataset

// Declared public ranges of the built-in datasets' features, used by Scale.
// They are round numbers fixed once for the demo, not recomputed from the
// data at run time. The penguin ranges are generous physical ranges of the
// three Pygoscelis species; the breast-cancer ranges are round bounds around
// the published summary statistics of the Wisconsin Diagnostic Breast Cancer
// data (UCI). For your own data, choose ranges without looking at it.
var (
	PenguinRanges = map[string]Range{
		"beak_length_mm":    {30, 60},
		"beak_depth_mm":     {13, 22},
		"flipper_length_mm": {170, 235},
		"body_mass_g":       {2500, 6500},
	}
	BreastCancerRanges = map[string]Range{
		"mean_radius": {5, 30}, "mean_texture": {5, 40}, "mean_perimeter": {40, 200}, "mean_area": {100, 2600},
		"mean_smoothness": {0.05, 0.17}, "mean_compactness": {0, 0.35}, "mean_concavity": {0, 0.45},
		"mean_concave_points": {0, 0.21}, "mean_symmetry": {0.1, 0.31}, "mean_fractal_dimension": {0.045, 0.1},
		"radius_error": {0, 3}, "texture_error": {0, 5}, "perimeter_error": {0, 22}, "area_error": {0, 550},
		"smoothness_error": {0, 0.032}, "compactness_error": {0, 0.14}, "concavity_error": {0, 0.4},
		"concave_points_error": {0, 0.055}, "symmetry_error": {0, 0.08}, "fractal_dimension_error": {0, 0.03},
		"worst_radius": {5, 37}, "worst_texture": {10, 50}, "worst_perimeter": {40, 260}, "worst_area": {100, 4300},
		"worst_smoothness": {0.05, 0.23}, "worst_compactness": {0, 1.1}, "worst_concavity": {0, 1.3},
		"worst_concave_points": {0, 0.3}, "worst_symmetry": {0.15, 0.67}, "worst_fractal_dimension": {0.05, 0.21},
	}
)

// Builtin is a public dataset shipped with the site under site/data (their
// provenance is in site/data/SOURCES.md), described once for the page
// (wasm/ui fetches File) and the bench's studies (wasm/tools/internal/study and
// internal/utility read it from disk); core reads no file.
type Builtin struct {
	Key    string // "penguins", "breast-cancer"
	Label  string // for a menu
	File   string // file name under site/data
	Target string // the binary label column (mapped to ±1 by Parse)
	// Positive is the declared label coded +1 (every other label −1): a
	// public schema, so the coding never depends on which labels occur.
	Positive string
	// Features are the numeric columns with declared ranges; nil means
	// every column but Target.
	Features []string
	Ranges   map[string]Range // declared public ranges, for Table.Scale
}

// Options are Parse's options for the classification task on every feature:
// the target, the features, a declared header row, and rows with a missing
// cell dropped (counted).
func (b Builtin) Options() Options {
	return Options{Target: b.Target, Positive: b.Positive, TargetType: TargetLabel, Drop: "missing", Features: b.Features, Header: HeaderPresent}
}

// Builtins lists the shipped datasets in menu order.
var Builtins = []Builtin{
	{Key: "penguins", Label: "Palmer penguins (344 birds)", File: "palmer-penguins.csv", Target: "sex", Positive: "MALE",
		Features: []string{"beak_length_mm", "beak_depth_mm", "flipper_length_mm", "body_mass_g"}, Ranges: PenguinRanges},
	{Key: "breast-cancer", Label: "Wisconsin breast cancer (569 tumours)", File: "breast-cancer-wisconsin.csv",
		Target: "malignant", Positive: "1", Ranges: BreastCancerRanges},
}

// LookupBuiltin returns the built-in dataset with the given key.
func LookupBuiltin(key string) (Builtin, bool) {
	for _, b := range Builtins {
		if b.Key == key {
			return b, true
		}
	}
	return Builtin{}, false
}
