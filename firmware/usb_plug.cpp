// The core's PluggableUSB with nothing plugged, as the game plugs nothing.
//
// USBCore asks PluggableUSB() for interfaces, descriptors, class requests and
// the serial number's string at every enumeration; with no module plugged the
// core's own list is empty and each answer is "none". These definitions give
// the same answers without the list (its constructed object, guard and loops): the core's
// PluggableUSB.cpp is then never linked, and LTO folds the calls away. The
// host sees the same descriptors byte for byte (the serial number is the
// empty string, as before). Nothing may call PluggableUSB().plug(): it is not
// defined, so a library that tried would fail to link.
#include <PluggableUSB.h>

int PluggableUSB_::getInterface(uint8_t*) { return 0; }
int PluggableUSB_::getDescriptor(USBSetup&) { return 0; }
bool PluggableUSB_::setup(USBSetup&) { return false; }
void PluggableUSB_::getShortName(char* iSerialNum) { *iSerialNum = 0; }

// The methods above read nothing of the object, so LTO drops it too.
PluggableUSB_::PluggableUSB_() {}
namespace {
PluggableUSB_ none;
}  // namespace
PluggableUSB_& PluggableUSB() { return none; }
