package fingerprint

// Violations counts the marking-condition violations of w against the
// coalition of all n users: published columns on which every user has the
// same bit b while w has 1−b. It is the Hamming distance from w to the
// feasible set F(C) (a product set), the quantity Lemma G.2's proof bounds
// by 2·excess.
func (c *Code) Violations(w Word) int { return c.ViolationsWithout(w, -1) }

// ViolationsWithout is Violations for the coalition [n]∖{i} (i < 0: nobody removed).
func (c *Code) ViolationsWithout(w Word, i int) int {
	v := 0
	for k := range c.src {
		o, size := c.Ones(k), c.N
		if i >= 0 {
			size--
			if c.Bit(i, k) {
				o--
			}
		}
		if (o == 0 && w.Get(k)) || (o == size && !w.Get(k)) {
			v++
		}
	}
	return v
}
