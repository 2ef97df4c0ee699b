//go:build js && wasm

package estimate

import (
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/timing"
)

// estimateWork turns the plan's work into seconds on this device.
func estimateWork(k loss.Kind, pl mechanism.Plan) timing.WorkEstimate {
	value := pl.Method != "first-order"
	c := timing.PassCost(k, pl.D, value)
	w := max(1, pl.Workers)
	speed, measured := timing.WorkerSpeed(w)
	passes := pl.Work.Passes + pl.Work.Reference // the sampler's and the non-private reference fit's
	return timing.WorkEstimate{Seconds: passes * pl.Work.RowsTimesD * c / speed, Passes: passes, Rows: pl.N, D: pl.D,
		Workers: w, Fixed: pl.FixedWork, NsPerRow: c * 1e9, Speed: speed, Measured: measured,
		Linear: pl.Schedule != nil && pl.Curvature > 0} // DP-GD on a smooth loss: dpgd.RuleCapped
}
