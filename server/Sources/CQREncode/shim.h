/* libqrencode (Debian's libqrencode-dev): the QR code of a web purchase's redemption link. */
#include <qrencode.h>
