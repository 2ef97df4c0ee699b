#!/usr/bin/env python3
"""Independent reference values for core/privacy, computed with mpmath at 60 digits.

Regenerate: python3 core/privacy/testdata/golden.py > core/privacy/testdata/golden.txt
δ_s(ε) = Φ(−ε/s + s/2) − e^ε Φ(−ε/s − s/2)   (Dong–Roth–Su Cor. 2.13; Balle–Wang Thm 8)
s*(ε, δ) = the root in s of δ_s(ε) = δ.
"""
import mpmath as mp

mp.mp.dps = 60
Phi = lambda x: mp.ncdf(x)

def delta(s, e):
    s, e = mp.mpf(s), mp.mpf(e)
    return Phi(-e / s + s / 2) - mp.exp(e) * Phi(-e / s - s / 2)

def sstar(e, d):
    f = lambda s: mp.log(delta(s, e)) - mp.log(mp.mpf(d))
    lo, hi = mp.mpf("1e-6"), mp.mpf(100)
    for _ in range(400):  # bisection: monotone in s, no starting-point sensitivity
        mid = (lo + hi) / 2
        if f(mid) <= 0:
            lo = mid
        else:
            hi = mid
    return lo

print("# delta s eps delta_s(eps)")
for s, e in [(1, 1), (1, 2), (3, 1), (1, 0), (1, -1), (0.5, 1), (2, 10), (0.1, 1), (0.05, 0.5),
             (0.2, 3), (0.01, 0.05), (5, 20), (0.3, 0.01), (10, 40), (0.15, 1)]:
    print("delta", s, e, mp.nstr(delta(s, e), 20))
print("# calibrate eps delta s*")
for e in [0.01, 0.1, 0.5, 1, 2, 4, 8, 16, 20]:
    for d in ["1e-12", "1e-10", "1e-6", "1e-5", "1e-3", "0.1"]:
        print("calibrate", e, d, mp.nstr(sstar(e, d), 20))
