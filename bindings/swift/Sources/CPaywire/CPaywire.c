#include "CPaywire.h"

uint32_t cpaywire_header_abi_version(void) { return PAYWIRE_ABI_VERSION; }
