// roofline: how much of the hardware ceiling does each dominant kernel already reach?
#include "roofline/cli/cli.hpp"

int main(int argc, char** argv) {
  return roofline::cli::run(argc, argv);
}
