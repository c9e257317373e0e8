#pragma once
// What the roofline chart shows, decided once for the SVG and the Markdown alike: which entries
// are points (and where: only entries with a verdict, docs/method.md §10.6), which roofs and
// target_eff ceilings are in play, and why an entry is left off.

#include <optional>
#include <string>
#include <vector>

#include "roofline/analyze/analysis.hpp"
#include "roofline/render/chart_layout.hpp"
#include "roofline/render/layer.hpp"

namespace roofline::render::chart {

struct Point {
  const HeadEntry* entry = nullptr;
  double ai = 0.0;       // FLOP/byte where the point is drawn
  double flops_s = 0.0;  // achieved FLOP/s where the point is drawn
  // docs/method.md §10.8: the band's ends, where its feasible readings sit (lowest AI first);
  // empty when the band is one point.
  struct End {
    double ai = 0.0, flops_s = 0.0;
  };
  std::vector<End> band;
};

struct Roof {
  std::string dtype;
  double peak_flops_s = 0.0;
  double ridge = 0.0;  // FLOP/byte where the memory roof meets this one
  // docs/method.md §5.7: set when this roof is a measured ceiling; the datasheet roof is drawn
  // dashed above it.
  std::optional<double> datasheet_flops_s;
};

// target_eff × roof for the classes that share one target and one compute dtype.
struct Ceiling {
  double target = 0.0;
  std::optional<double> peak_flops_s;  // nullopt: memory-only (elementwise)
  std::string dtype;
  std::string classes;  // "gemm, moe"
};

struct OffChart {
  std::string name;  // ranking name
  std::string reason;
};

struct Model {
  std::optional<double> bw_bytes_s;            // the memory ceiling (measured where it is)
  std::optional<double> datasheet_bw_bytes_s;  // set when bw_bytes_s is a measured ceiling
  bool any_measured = false;                   // a measured roof is drawn: the legend says so
  std::vector<Roof> roofs;                     // highest peak first
  std::vector<Ceiling> ceilings;
  std::vector<Point> points;  // in entry order (biggest GPU share first)
  std::vector<OffChart> off_chart;
  std::string empty_reason;  // why no point is drawn ("" when some are)
  DecadeSpan x, y;           // the axes' decades
};

// Pure: the same Analysis gives the same Model.
Model chart_model(const Analysis& analysis);

}  // namespace roofline::render::chart
