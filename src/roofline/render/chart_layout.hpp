#pragma once
// Geometry of the roofline chart, free of drawing: log scales, decade ticks and their labels,
// and the label-placement pass that keeps point labels from overlapping.

#include <string>
#include <vector>
#include "roofline/render/layer.hpp"

namespace roofline::render::chart {

// Maps [10^lo_exp, 10^hi_exp] onto pixels [px_lo, px_hi] logarithmically (px_hi < px_lo for an
// upward y axis).
struct LogScale {
  int lo_exp = 0, hi_exp = 1;
  double px_lo = 0.0, px_hi = 1.0;
  double operator()(double v) const;  // pixel of a positive value
  double inverse(double px) const;    // value at a pixel
  bool contains(double v) const;      // 10^lo_exp <= v <= 10^hi_exp
  int decades() const { return hi_exp - lo_exp; }
};

struct DecadeSpan {
  int lo_exp = 0, hi_exp = 1;
};
// The decades covering [lo, hi] (both > 0), widened symmetrically to `min_decades`. When wider
// than `max_decades`, the top `max_decades` are kept (values below fall off the chart).
DecadeSpan decade_span(double lo, double hi, int min_decades, int max_decades);

// Tick labels: 10^exp as "0.01", "1", "100", "10k", "1M" (arithmetic intensity, FLOP/byte) and
// as "100 GFLOP/s", "1 TFLOP/s", "10 PFLOP/s" (rates).
std::string plain_decade(int exp);
std::string rate_decade(int exp, const std::string& unit);

struct Rect {
  double x = 0, y = 0, w = 0, h = 0;
  double right() const { return x + w; }
  double bottom() const { return y + h; }
  double overlap_area(const Rect& o) const;
  bool inside(const Rect& outer) const;
};

// One label to place beside its point (a marker of radius r at (x, y)).
struct LabelRequest {
  double x = 0, y = 0, r = 0;
  double w = 0, h = 0;  // the label's box
  // The box of its one-line form (the name alone), tried where the full box finds no free spot;
  // 0: no such form.
  double compact_w = 0, compact_h = 0;
};
struct LabelSpot {
  Rect box;
  bool leader = false;   // far from its marker: draw a line from the marker to the box
  bool compact = false;  // the one-line form: the full one had no free spot
};

// Places the labels in the given order (most important first): each takes the first candidate
// spot around its marker — right, left, above, below, then the diagonals, moving outwards ring
// by ring — that stays inside `bounds`, overlaps no earlier label and no obstacle, and keeps a
// margin from every other marker (so it cannot be read as a neighbour's label); a spot beyond the
// first ring gets a leader line, which must not cross another label. When no spot is free, the
// one-line form is tried the same way, and then the spot with the least overlap wins.
// Deterministic.
std::vector<LabelSpot> place_labels(const std::vector<LabelRequest>& labels, const Rect& bounds,
                                    const std::vector<Rect>& obstacles);

}  // namespace roofline::render::chart
