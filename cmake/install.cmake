# What `make install` (cmake --install) puts where, and the files made for
# it: the man page and the bash completion, rendered from the program's own
# --help by scripts/helpdoc.sh after each link, so they cannot drift.
#
#   bin/bouton
#   lib/libbouton.a, lib/libbouton.so.MAJOR.MINOR.PATCH (soname .so.MAJOR)
#   include/bouton.h, include/bouton/*.h
#   lib/pkgconfig/bouton.pc                  pkg-config --cflags --libs bouton
#   lib/cmake/bouton/                        find_package(bouton): bouton::bouton
#   share/man/man1/bouton.1                  man bouton
#   share/bash-completion/completions/bouton
#   share/bouton/store/                      the store's shipped entries
#
# (lib/ is CMAKE_INSTALL_LIBDIR: lib/<multiarch> for the prefix /usr on
# Debian.)  Every path is relative to the prefix given at install time
# (cmake --install build --prefix P), so one build installs anywhere.
include(CMakePackageConfigHelpers)

add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/bouton.1
  COMMAND sh ${PROJECT_SOURCE_DIR}/scripts/helpdoc.sh man
          $<TARGET_FILE:bouton> ${PROJECT_BINARY_DIR}/bouton.1
  DEPENDS bouton ${PROJECT_SOURCE_DIR}/scripts/helpdoc.sh
  COMMENT "Rendering bouton(1) from bouton --help")
add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/bouton.bash-completion
  COMMAND sh ${PROJECT_SOURCE_DIR}/scripts/helpdoc.sh bash
          $<TARGET_FILE:bouton> ${PROJECT_BINARY_DIR}/bouton.bash-completion
  DEPENDS bouton ${PROJECT_SOURCE_DIR}/scripts/helpdoc.sh
  COMMENT "Rendering the bash completion from bouton --help")
add_custom_target(bouton_docs ALL DEPENDS ${PROJECT_BINARY_DIR}/bouton.1
  ${PROJECT_BINARY_DIR}/bouton.bash-completion)

set_target_properties(bouton_shared PROPERTIES EXPORT_NAME bouton)
set_target_properties(bouton_static PROPERTIES EXPORT_NAME bouton_static)
# The program keeps the path of a library linked from outside the system's
# directories (an MPI in its own directory), which the build tree had.
set_target_properties(bouton PROPERTIES INSTALL_RPATH_USE_LINK_PATH TRUE)
install(TARGETS bouton RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS bouton_shared bouton_static EXPORT bouton-targets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/bouton.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/bouton
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")

# The CMake package, relocatable: its paths are computed from where the
# files lie.
set(BOUTON_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/bouton)
install(EXPORT bouton-targets NAMESPACE bouton::
  DESTINATION ${BOUTON_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/bouton-config.cmake.in
  ${PROJECT_BINARY_DIR}/bouton-config.cmake
  INSTALL_DESTINATION ${BOUTON_CMAKE_DIR})
# The soname changes with the major version; so does compatibility.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/bouton-config-version.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/bouton-config.cmake
  ${PROJECT_BINARY_DIR}/bouton-config-version.cmake
  DESTINATION ${BOUTON_CMAKE_DIR})

# bouton.pc names the prefix the files are installed under, which is known
# only at install time (--prefix), so cmake/bouton.pc.in is configured then.
install(CODE "
  set(BT_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  set(PROJECT_VERSION \"${PROJECT_VERSION}\")
  set(CMAKE_INSTALL_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
  set(CMAKE_INSTALL_INCLUDEDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")
  set(pc \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig/bouton.pc\")
  message(STATUS \"Installing: \${pc}\")
  configure_file(\"${PROJECT_SOURCE_DIR}/cmake/bouton.pc.in\" \"\${pc}\" @ONLY)
  list(APPEND CMAKE_INSTALL_MANIFEST_FILES \"\${pc}\")")

install(FILES ${PROJECT_BINARY_DIR}/bouton.1
  DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${PROJECT_BINARY_DIR}/bouton.bash-completion
  DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
  RENAME bouton)

# The store's shipped entries (docs/store.md): the proved misère quotients
# of the classical games that prove in well under a second each (Kayles
# about 0.2 s), and the wild games that do not prove within a minute
# computed to the heap each reaches, in about 5 s of CPU (GAME@N: Dawson's
# Kayles 0.07 to 33, 0.137 to 32; each checked in 0.07 s where it is
# learnt in 5), computed by the bouton just built and checked again
# by `bouton store verify`.  The program finds them from its own path
# (BOUTON_SHIPPED_STORE, relative to bin/), so that one build installs
# anywhere.
set(BOUTON_SHIPPED_GAMES kayles octal:0.75 octal:0.31 octal:0.52 octal:0.53
  octal:0.12 octal:0.13 octal:0.21 octal:0.22 octal:0.23 octal:0.32
  octal:0.33 dawsons-kayles@33 octal:0.137@32)
add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/store.stamp
  COMMAND sh ${PROJECT_SOURCE_DIR}/scripts/store-entries.sh
          $<TARGET_FILE:bouton> ${PROJECT_BINARY_DIR}/store
          ${PROJECT_BINARY_DIR}/store.stamp ${BOUTON_SHIPPED_GAMES}
  DEPENDS bouton ${PROJECT_SOURCE_DIR}/scripts/store-entries.sh
  COMMENT "Proving the store's shipped entries with bouton quotient")
# Not part of a sanitizer build's default target: nothing installs from
# it, and its slower bouton would prove the entries again (the wild ones
# take about 10 s of CPU in the normal build).
if(BOUTON_SANITIZE)
  add_custom_target(bouton_store DEPENDS ${PROJECT_BINARY_DIR}/store.stamp)
else()
  add_custom_target(bouton_store ALL DEPENDS ${PROJECT_BINARY_DIR}/store.stamp)
endif()
install(DIRECTORY ${PROJECT_BINARY_DIR}/store/
  DESTINATION ${CMAKE_INSTALL_DATADIR}/bouton/store)
