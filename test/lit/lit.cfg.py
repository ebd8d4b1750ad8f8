# lit configuration for memcoro. Substitutions:
#   %opt          opt-19 with the memcoro pass plugin loaded (add -passes=...)
#   %passes-plugin  the pass plugin's path, for clang -fpass-plugin=
#   %memcoro-cc   the driver (C);  %memcoro-cxx  the driver (C++)
#   %clang-plain  clang-19 with no memcoro at all
#   %FileCheck    FileCheck from LLVM 19 (also plain FileCheck/not/count on PATH)
#   %memcoro_lib  the build's lib/ (plugins, runtime); %memcoro_src  the source tree
import os
import lit.formats

config.name = "memcoro"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".ll", ".c", ".cpp", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = config.memcoro_obj_root

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.memcoro_bin_dir, config.environment.get("PATH", "")])

pass_plugin = os.path.join(config.memcoro_lib_dir, "MemcoroPasses.so")
config.substitutions.append(
    ("%opt", f"{config.llvm_tools_dir}/opt -load-pass-plugin={pass_plugin}"))
config.substitutions.append(("%passes-plugin", pass_plugin))
config.substitutions.append(("%memcoro-cxx", os.path.join(config.memcoro_bin_dir, "memcoro-c++")))
config.substitutions.append(("%memcoro-cc", os.path.join(config.memcoro_bin_dir, "memcoro-cc")))
config.substitutions.append(("%clang-plain", os.path.join(config.llvm_tools_dir, "clang")))
config.substitutions.append(("%FileCheck", os.path.join(config.llvm_tools_dir, "FileCheck")))
config.substitutions.append(("%memcoro_lib", config.memcoro_lib_dir))
config.substitutions.append(("%memcoro_src", config.memcoro_src_dir))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
