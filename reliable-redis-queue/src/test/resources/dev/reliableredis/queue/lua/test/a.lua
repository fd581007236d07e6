-- LuaScriptTest: counted once per inlining
inlined = inlined + 1
