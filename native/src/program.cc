// Static program runner API (issue 4 fills this in: lowered instruction lists + buffer plans).
#include <napi.h>
namespace skiff {
void register_program_api(Napi::Env env, Napi::Object exports) { (void)env; (void)exports; }
}  // namespace skiff
