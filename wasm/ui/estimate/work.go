//go:build js && wasm

package estimate

import (
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/timing"
)

// estimateWork turns the plan's work into seconds on this device.
func estimateWork(k loss.Kind, pl mechanism.Plan) timing.WorkEstimate { return timing.ForPlan(k, pl) }
