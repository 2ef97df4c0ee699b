package zigtree

import (
	"math/rand/v2"
	"testing"
)

// Test files are skipped by the check: test data may come from anywhere.
func TestData(t *testing.T) { _ = rand.NormFloat64() }
