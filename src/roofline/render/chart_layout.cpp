#include "roofline/render/chart_layout.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include <fmt/format.h>
#include "roofline/render/layer.hpp"

namespace roofline::render::chart {

double LogScale::operator()(double v) const {
  const double t = (std::log10(v) - lo_exp) / (hi_exp - lo_exp);
  return px_lo + t * (px_hi - px_lo);
}

double LogScale::inverse(double px) const {
  const double t = (px - px_lo) / (px_hi - px_lo);
  return std::pow(10.0, lo_exp + t * (hi_exp - lo_exp));
}

bool LogScale::contains(double v) const {
  if (!(v > 0) || !std::isfinite(v)) return false;
  const double e = std::log10(v);
  return e >= lo_exp - 1e-9 && e <= hi_exp + 1e-9;
}

DecadeSpan decade_span(double lo, double hi, int min_decades, int max_decades) {
  DecadeSpan s;
  s.lo_exp = static_cast<int>(std::floor(std::log10(lo)));
  s.hi_exp = static_cast<int>(std::ceil(std::log10(hi)));
  if (s.hi_exp <= s.lo_exp) s.hi_exp = s.lo_exp + 1;
  while (s.hi_exp - s.lo_exp < min_decades) {
    // Widen on the side with less room first (lo first on a tie), so the data stays centred.
    const double room_lo = std::log10(lo) - s.lo_exp, room_hi = s.hi_exp - std::log10(hi);
    if (room_lo <= room_hi)
      --s.lo_exp;
    else
      ++s.hi_exp;
  }
  if (s.hi_exp - s.lo_exp > max_decades) s.lo_exp = s.hi_exp - max_decades;
  return s;
}

std::string plain_decade(int exp) {
  if (exp < 0) return fmt::format("{:.{}f}", std::pow(10.0, exp), -exp);
  static constexpr std::array<const char*, 5> k_suffix{"", "k", "M", "G", "T"};
  const int group = std::min(exp / 3, 4);
  return fmt::format("{:.0f}{}", std::pow(10.0, exp - 3 * group),
                     k_suffix[static_cast<std::size_t>(group)]);
}

std::string rate_decade(int exp, const std::string& unit) {
  static constexpr std::array<const char*, 7> k_prefix{"", "k", "M", "G", "T", "P", "E"};
  if (exp < 0 || exp >= 21) return fmt::format("1e{} {}", exp, unit);
  const int group = exp / 3;
  return fmt::format("{:.0f} {}{}", std::pow(10.0, exp - 3 * group),
                     k_prefix[static_cast<std::size_t>(group)], unit);
}

double Rect::overlap_area(const Rect& o) const {
  const double w_ = std::min(right(), o.right()) - std::max(x, o.x);
  const double h_ = std::min(bottom(), o.bottom()) - std::max(y, o.y);
  return w_ > 0 && h_ > 0 ? w_ * h_ : 0.0;
}

bool Rect::inside(const Rect& outer) const {
  return x >= outer.x && y >= outer.y && right() <= outer.right() && bottom() <= outer.bottom();
}

namespace {

constexpr double k_gap = 4.0;   // between a marker and its label
constexpr double k_ring = 8.0;  // how much further out each ring of candidates goes
constexpr int k_rings = 48;
// What a spot costs, in order of how much it hurts: leaving the plot, then covering another
// label or fixed text, then covering a marker (read as that marker's label), then a leader line
// through a label, then distance.
constexpr double k_outside_cost = 1e12;
constexpr double k_label_overlap_cost = 1e4;  // per square pixel
constexpr double k_marker_margin = 8.0;       // keep-out around other markers
constexpr double k_scan_step = 6.0;           // the step of the last resort's scan of the plot

// The box for a label in direction (dx, dy) at distance d from the marker's centre; `slide`
// in [-1, 1] moves it along the side it sits on (0: centred, ±1: flush with the marker).
Rect candidate(const LabelRequest& l, int dx, int dy, double d, double slide) {
  Rect b{0, 0, l.w, l.h};
  b.x = dx > 0 ? l.x + d : dx < 0 ? l.x - d - l.w : l.x - l.w / 2 + slide * l.w / 2;
  b.y = dy > 0 ? l.y + d : dy < 0 ? l.y - d - l.h : l.y - l.h / 2 + slide * l.h / 2;
  return b;
}

Rect marker_box(const LabelRequest& l, double margin) {
  const double r = l.r + margin;
  return {l.x - r, l.y - r, 2 * r, 2 * r};
}

constexpr std::array<std::array<int, 2>, 8> k_dirs{
    {{1, 0}, {-1, 0}, {0, -1}, {0, 1}, {1, -1}, {-1, -1}, {1, 1}, {-1, 1}}};
constexpr std::array<double, 5> k_slides{0.0, 0.5, -0.5, 1.0, -1.0};

// What placing label `i` weighs a spot against: the plot, the other markers and what is taken.
struct LabelContext {
  const std::vector<LabelRequest>& labels;
  std::size_t i;
  const Rect& bounds;
  const std::vector<Rect>& taken;  // fixed text and the labels already placed
};

// Adds to `cost` what a leader from the marker to `box` costs: 40 for each 3-pixel step of it
// inside a taken box.
void add_leader_cost(double& cost, const LabelRequest& l, const Rect& box,
                     const std::vector<Rect>& taken) {
  const double tx = std::clamp(l.x, box.x, box.right()), ty = std::clamp(l.y, box.y, box.bottom());
  const double len = std::hypot(tx - l.x, ty - l.y);
  for (double d = l.r; d < len; d += 3) {
    const double px = l.x + (tx - l.x) * d / len, py = l.y + (ty - l.y) * d / len;
    for (const auto& t : taken)
      if (px >= t.x && px <= t.right() && py >= t.y && py <= t.bottom()) cost += 40;
  }
}

// What putting the label at `box` costs (0: a free spot), with a leader line or without.
double spot_cost(const LabelContext& ctx, const Rect& box, bool leader) {
  const LabelRequest& l = ctx.labels[ctx.i];
  double cost = box.inside(ctx.bounds) ? 0.0 : k_outside_cost;
  for (const auto& t : ctx.taken) cost += k_label_overlap_cost * box.overlap_area(t);
  // Other markers, with a margin: a label must not look like it belongs to a neighbour.
  for (std::size_t j = 0; j < ctx.labels.size(); ++j)
    if (j != ctx.i) {
      const LabelRequest& o = ctx.labels[j];
      cost += box.overlap_area(marker_box(o, k_marker_margin));
    }
  // Its own marker stays visible: a label far from it must not cover it.
  cost += k_label_overlap_cost * box.overlap_area(marker_box(l, 0.0));
  // A leader line must not run through another label.
  if (leader) add_leader_cost(cost, l, box, ctx.taken);
  return cost;
}

// The cheapest spot for the label's box `form` around its marker, ring by ring outwards, and
// its cost; stops at the first ring with a free spot.
std::pair<LabelSpot, double> ring_search(const LabelContext& ctx, const LabelRequest& form,
                                         bool compact) {
  LabelSpot best;
  double best_cost = std::numeric_limits<double>::infinity();
  for (int ring = 0; ring < k_rings && best_cost > 0; ++ring) {
    const double d = form.r + k_gap + ring * k_ring;
    for (const auto& [dx, dy] : k_dirs)
      for (const double slide : k_slides) {
        // Sliding only moves a box along a side (above, below, left, right), not a corner.
        if (slide != 0.0 && dx != 0 && dy != 0) continue;
        const Rect box = candidate(form, dx, dy, d, slide);
        double cost = spot_cost(ctx, box, ring > 0);
        // A spot further out costs a little, so a free near spot always wins.
        if (cost > 0) cost += ring;
        if (cost < best_cost) {
          best_cost = cost;
          best = {box, ring > 0, compact};
        }
      }
  }
  return std::pair{best, best_cost};
}

// The last resort: a scan of the whole plot for a spot cheaper than `best_cost`, nearer to the
// marker counting for a little; such a spot replaces `best`, with a leader.
void scan_plot(const LabelContext& ctx, LabelSpot& best, double& best_cost) {
  const LabelRequest& l = ctx.labels[ctx.i];
  const Rect& bounds = ctx.bounds;
  const bool compact = l.compact_w > 0 && l.compact_h > 0;
  const double w = compact ? l.compact_w : l.w, h = compact ? l.compact_h : l.h;
  for (double y = bounds.y; y + h <= bounds.bottom(); y += k_scan_step)
    for (double x = bounds.x; x + w <= bounds.right(); x += k_scan_step) {
      const Rect box{x, y, w, h};
      const double cost =
          spot_cost(ctx, box, true) + std::hypot(x + w / 2 - l.x, y + h / 2 - l.y) / k_scan_step;
      if (cost < best_cost) {
        best_cost = cost;
        best = {box, true, compact};
      }
    }
}

}  // namespace

std::vector<LabelSpot> place_labels(const std::vector<LabelRequest>& labels, const Rect& bounds,
                                    const std::vector<Rect>& obstacles) {
  std::vector<Rect> taken = obstacles;  // fixed text, then each label as it is placed
  std::vector<LabelSpot> spots;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const LabelRequest& l = labels[i];
    const LabelContext ctx{labels, i, bounds, taken};
    auto [best, best_cost] = ring_search(ctx, l, false);
    if (best_cost >= k_label_overlap_cost && l.compact_w > 0 && l.compact_h > 0) {
      LabelRequest one_line = l;
      one_line.w = l.compact_w;
      one_line.h = l.compact_h;
      auto [compact, compact_cost] = ring_search(ctx, one_line, true);
      if (compact_cost < best_cost) {
        best = compact;
        best_cost = compact_cost;
      }
    }
    // Crowded: the nearest free spot anywhere in the plot, joined to its marker by a leader.
    if (best_cost >= k_label_overlap_cost) scan_plot(ctx, best, best_cost);
    taken.push_back(best.box);
    spots.push_back(best);
  }
  return spots;
}

}  // namespace roofline::render::chart
