/*
 * A test-only InspIRCd 3 module: advertises the CRAWLER ISUPPORT token
 * (IRCv3 draft "Crawler Preference") from <crawlerpref value="..."> or, with
 * bare="yes", without a value. No Debian IRC server can advertise CRAWLER
 * from its configuration, so heed's integration tests build this against
 * inspircd-dev (-fno-rtti, as InspIRCd 3 modules must be).
 */
#include "inspircd.h"

class ModuleCrawlerPref : public Module {
	std::string value;
	bool bare;

public:
	void ReadConfig(ConfigStatus &) CXX11_OVERRIDE
	{
		ConfigTag *tag = ServerInstance->Config->ConfValue("crawlerpref");
		value = tag->getString("value", "index:allow,cooldown:3600");
		bare = tag->getBool("bare", false);
	}

	void On005Numeric(std::map<std::string, std::string> &tokens)
	        CXX11_OVERRIDE
	{
		tokens["CRAWLER"] = bare ? "" : value;
	}

	Version GetVersion() CXX11_OVERRIDE
	{
		return Version("Test-only CRAWLER ISUPPORT token", VF_NONE);
	}
};

MODULE_INIT(ModuleCrawlerPref)
