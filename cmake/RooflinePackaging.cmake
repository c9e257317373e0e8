# An installable tool (docs/method.md §19): the man page and the shell completions generated from
# the built binary, the install rules, and the Debian package (`cpack -G DEB` in the build folder).

include(GNUInstallDirs)

# The man page and completions come from `roofline --help-man` and `roofline --completion SHELL`,
# which walk the same CLI11 App that parses the command line: an option added to any subcommand
# is documented and completed with no edit here. They are rebuilt whenever roofline is.
find_program(ROOFLINE_GZIP gzip)
set(ROOFLINE_MAN ${PROJECT_BINARY_DIR}/roofline.1)
set(ROOFLINE_BASH_COMPLETION ${PROJECT_BINARY_DIR}/completions/roofline)
set(ROOFLINE_ZSH_COMPLETION ${PROJECT_BINARY_DIR}/completions/_roofline)
set(_docs ${ROOFLINE_MAN} ${ROOFLINE_BASH_COMPLETION} ${ROOFLINE_ZSH_COMPLETION})
set(ROOFLINE_MAN_INSTALLED ${ROOFLINE_MAN})
if(ROOFLINE_GZIP)
  set(ROOFLINE_MAN_INSTALLED ${ROOFLINE_MAN}.gz)
  list(APPEND _docs ${ROOFLINE_MAN_INSTALLED})
endif()
add_custom_command(
  OUTPUT ${_docs}
  COMMAND ${CMAKE_COMMAND} -DROOFLINE=$<TARGET_FILE:roofline> -DOUT=${PROJECT_BINARY_DIR}
          -DGZIP=${ROOFLINE_GZIP} -P ${PROJECT_SOURCE_DIR}/cmake/generate_docs.cmake
  DEPENDS roofline ${PROJECT_SOURCE_DIR}/cmake/generate_docs.cmake
  COMMENT "Generating the man page and the bash and zsh completions from the CLI definitions"
  VERBATIM)
add_custom_target(roofline_docs ALL DEPENDS ${_docs})

install(TARGETS roofline RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${ROOFLINE_MAN_INSTALLED} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${ROOFLINE_BASH_COMPLETION}
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES ${ROOFLINE_ZSH_COMPLETION} DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/LICENSE
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The ceiling-measuring script (docs/method.md §5.7), run with PyTorch on a GPU host, and the
# peaks table it takes the datasheet rows from (it reads the peaks.md installed beside it).
install(PROGRAMS ${PROJECT_SOURCE_DIR}/data/measure_peaks.py
        DESTINATION ${CMAKE_INSTALL_DATADIR}/roofline)
install(FILES ${PROJECT_SOURCE_DIR}/data/peaks.md DESTINATION ${CMAKE_INSTALL_DATADIR}/roofline)

# The Debian package. Name, version and summary come from project(); the maintainer can be set
# with -DROOFLINE_PACKAGE_MAINTAINER="Name <mail>".
set(ROOFLINE_PACKAGE_MAINTAINER
    "The roofline authors <maintainers@users.noreply.a-seed-32228bf5.example>"
    CACHE STRING "Maintainer field of the Debian package")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ${PROJECT_NAME})
set(CPACK_PACKAGE_VENDOR "The roofline authors")
set(CPACK_PACKAGE_CONTACT ${ROOFLINE_PACKAGE_MAINTAINER})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY ${PROJECT_DESCRIPTION})
# The extended description of the control file, in lines of at most 79 characters.
set(CPACK_PACKAGE_DESCRIPTION
    "roofline reads a recorded GPU profile of an LLM serving run (a Top-N of
kernels, the environment report, the model's config.json and a table of
hardware peaks) and reports, for each dominant kernel, how much of the
hardware ceiling it reaches, how much is left to win and what kind of fix can
win it. It writes a JSON artifact, a Markdown report and an SVG roofline
chart, and also builds the Top-N from raw PyTorch, rocprofv3 and Nsight
traces. One binary: no network, no Python, no GPU needed at run time.")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # roofline_<version>-1_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${ROOFLINE_PACKAGE_MAINTAINER})
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "bash-completion, man-db")
if(ROOFLINE_STATIC AND NOT ROOFLINE_SANITIZE)
  # -static-pie (src/roofline/cli/CMakeLists.txt): no shared library is loaded at run time, not even
  # libc (`file` says "static-pie linked", `ldd` "statically linked"), so nothing to depend on.
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "")
else()
  # A dynamic build: dpkg-shlibdeps (dpkg-dev) reads the libraries the binary needs. Without it
  # CPack would quietly write a package with no Depends at all.
  find_program(ROOFLINE_DPKG_SHLIBDEPS dpkg-shlibdeps)
  if(NOT ROOFLINE_DPKG_SHLIBDEPS)
    message(WARNING "roofline: dpkg-shlibdeps (dpkg-dev) not found: the Debian package of this "
                    "dynamically linked build would declare no dependencies")
  endif()
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
endif()
include(CPack)
