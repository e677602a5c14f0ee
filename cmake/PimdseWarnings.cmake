# Warnings live on an INTERFACE target that our own targets link, never on third-party code.
add_library(pimdse_warnings INTERFACE)
target_compile_options(pimdse_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                       $<$<BOOL:${PIMDSE_WERROR}>:-Werror>)

add_library(pimdse_sanitize INTERFACE)
if(PIMDSE_SANITIZE)
  # -O1 after the Debug type's -O0: what AddressSanitizer's authors recommend for speed with
  # usable stacks; it halves the instrumented suite's time in CI. Assertions stay on.
  target_compile_options(pimdse_sanitize INTERFACE -O1 -fsanitize=address,undefined -fno-omit-frame-pointer
                         -fno-sanitize-recover=undefined)
  target_link_options(pimdse_sanitize INTERFACE -fsanitize=address,undefined)
endif()
